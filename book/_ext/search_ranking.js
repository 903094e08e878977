/* mlcbook search (_config.yml sets it as html_search_scorer: inlined into language_data.js, after
   searchtools.js, before the search runs).
   1. Chapters before the API reference: a word search ranks every API page (and every
      Python object found by name) below the chapters, unless the query looks like code
      (it holds "_", "." or "()"), when the API's own entries keep their rank.
   2. Snippets from the article's text only: the page header (download buttons, the
      "Contents" box), the navigation and the run-this-chapter note are not text to quote.
   3. Snippets read mathematics as words, never as TeX: the page's source holds \(\mathbf y\)
      for MathJax to typeset, which a snippet would quote raw; it quotes "y". */
;(function () {
  if (typeof Scorer === "undefined" || typeof Search === "undefined") { return; }
  var API_PENALTY = 40;  // larger than any full-text score (title 15) plus an object's (<= 26)
  var query = function () {
    return new URLSearchParams(window.location.search).get("q") || "";
  };
  Scorer.score = function (result) {
    var docname = result[0], score = result[4];
    var api = docname.indexOf("book/api/") === 0 || docname === "genindex" || docname === "py-modindex";
    if (!api) { return score; }
    return /[_.]|\(\)/.test(query()) ? score : score - API_PENALTY;
  };
  var NOT_TEXT = [".bd-header-article", ".header-article", ".bd-sidebar-secondary", ".bd-toc",
                  ".prev-next-area", ".bd-footer-article", ".mlcbook-run-note", "nav"];
  var GREEK = {alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", lambda: "λ",
               mu: "μ", sigma: "σ", tau: "τ", phi: "φ", pi: "π", ell: "ℓ", infty: "∞",
               le: "≤", leq: "≤", ge: "≥", geq: "≥", ne: "≠", neq: "≠", in: "∈", times: "×",
               cdot: "·", dots: "…", ldots: "…", cdots: "…", sum: "Σ", to: "→", pm: "±"};
  var texToText = function (tex) {
    return tex
      .replace(/^\\[(\[]|\\[)\]]$/g, "")                 // the \( \) \[ \] around it
      .replace(/\\(?:frac|tfrac|dfrac)\{([^{}]*)\}\{([^{}]*)\}/g, "$1/$2")
      .replace(/\\([A-Za-z]+)/g, function (m, name) { return GREEK[name] || ""; })
      .replace(/[{}]|\\[,;!:]/g, "")
      .replace(/\s+/g, " ").trim();
  };
  var original = Search.htmlToText;
  Search.htmlToText = function (htmlString, anchor) {
    var doc = new DOMParser().parseFromString(htmlString, "text/html");
    NOT_TEXT.forEach(function (q) {
      doc.querySelectorAll(q).forEach(function (el) { el.remove(); });
    });
    doc.querySelectorAll(".math").forEach(function (el) {
      el.textContent = " " + texToText(el.textContent) + " ";
    });
    return original(doc.documentElement.outerHTML, anchor);
  };
})();

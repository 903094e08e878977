% Run the authors' perform_measure.m (YuriWu/LIMO measure/, read in place from
% MLCBOOK_LIMO) on every case folder MLCBOOK_IN/<case>/ (y_pred.csv, v_pred.csv,
% y_true.csv, 0/1 labels) one measure at a time, and write "case,measure,value" or
% "case,measure,ERROR: message" rows to MLCBOOK_OUT.  mlcbook's glue, not the
% authors' code.
addpath(fullfile(MLCBOOK_LIMO, 'measure'));
names = {'hamming loss', 'average precision', 'ranking loss', 'one-error', 'coverage', ...
         'macro-F1', 'micro-F1', 'instance-F1', 'macro-AUC', 'micro-AUC', 'instance-AUC'};
fields = {'hamming_loss', 'average_precision', 'ranking_loss', 'one_error', 'coverage', ...
          'macro_F1', 'micro_F1', 'instance_F1', 'macro_AUC', 'micro_AUC', 'instance_AUC'};
cases = strsplit(strtrim(fileread(fullfile(MLCBOOK_IN, 'cases.txt'))), "\n");
fid = fopen(MLCBOOK_OUT, 'w');
for c = 1:numel(cases)
  folder = fullfile(MLCBOOK_IN, cases{c});
  rd = @(name) dlmread(fullfile(folder, [name '.csv']), ',');
  y_pred = rd('y_pred'); v_pred = rd('v_pred'); y_true = rd('y_true');
  for m = 1:numel(names)
    try
      r = perform_measure(y_pred, v_pred, y_true, names(m));
      fprintf(fid, '%s,%s,%.17g\n', cases{c}, fields{m}, r.(fields{m}));
    catch err
      fprintf(fid, '%s,%s,ERROR: %s\n', cases{c}, fields{m}, strrep(err.message, ',', ';'));
    end
  end
end
fclose(fid);

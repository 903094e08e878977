% Run the authors' threshold functions (YuriWu/LIMO, read in place from MLCBOOK_LIMO)
% on the inputs mlcrepro.wu_zhou2017.octave_fixtures wrote to MLCBOOK_IN, and write
% every output to MLCBOOK_OUT as "name,i,j,value" rows.  mlcbook's glue, not the
% authors' code.  Needs MLCBOOK_LIMO, MLCBOOK_LIBSVM, MLCBOOK_IN, MLCBOOK_OUT set.
addpath(MLCBOOK_LIMO);
addpath(MLCBOOK_LIBSVM);
rd = @(name) dlmread(fullfile(MLCBOOK_IN, [name '.csv']), ',');
fid = fopen(MLCBOOK_OUT, 'w');

% (a) generic score matrices: every cut function on every row and every column
F = rd('F'); Y = rd('Y');
[n, K] = size(F);
out = zeros(n, 4);
for i = 1:n
  [t, h] = best_hloss_threshold(F(i, :)', Y(i, :)');
  [s, f] = best_f1_threshold(F(i, :)', Y(i, :)');
  out(i, :) = [t, h, s, f];
end
mlcbook_put(fid, 'row_cuts', out);           % hloss cut, its hloss, F1 cut, its F1
out = zeros(K, 4);
for j = 1:K
  [t, h] = best_hloss_threshold(F(:, j), Y(:, j));
  [s, f] = best_f1_threshold(F(:, j), Y(:, j));
  out(j, :) = [t, h, s, f];
end
mlcbook_put(fid, 'column_cuts', out);
mlcbook_put(fid, 'column_macro_F1', limo_column_threshold(F, Y, 'macro-F1'));
mlcbook_put(fid, 'column_micro_F1', limo_column_threshold(F, Y, 'micro-F1'));
mlcbook_put(fid, 'column_hloss', limo_column_threshold(F, Y, 'hloss'));

% (b) a linear model W on features: limo_row_threshold (LIBSVM epsilon-SVR) and
% limo_predict end to end, as demo.m calls them
Xtr = rd('Xtr'); Ytr = rd('Ytr'); Xte = rd('Xte'); W = rd('W');
model = limo_row_threshold(Xtr * W, Xtr, Ytr, 'hloss');
mlcbook_put(fid, 'svr_train_t', svmpredict(zeros(size(Xtr, 1), 1), Xtr, model, '-q'));
mlcbook_put(fid, 'svr_test_t', svmpredict(zeros(size(Xte, 1), 1), Xte, model, '-q'));
[label, value] = limo_predict(W, Xte, model, 'row_svm');
mlcbook_put(fid, 'predict_row_svm', label);
mlcbook_put(fid, 'predict_value', value);
model_f1 = limo_row_threshold(Xtr * W, Xtr, Ytr, 'example-F1');
mlcbook_put(fid, 'svr_f1_test_t', svmpredict(zeros(size(Xte, 1), 1), Xte, model_f1, '-q'));
tm = limo_column_threshold(Xtr * W, Ytr, 'macro-F1');
mlcbook_put(fid, 'linear_macro_F1', tm);
mlcbook_put(fid, 'predict_column_macro', limo_predict(W, Xte, tm, 'column'));
tu = limo_column_threshold(Xtr * W, Ytr, 'micro-F1');
mlcbook_put(fid, 'linear_micro_F1', tu);
mlcbook_put(fid, 'predict_column_micro', limo_predict(W, Xte, tu, 'column'));
fclose(fid);

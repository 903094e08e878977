function mlcbook_write_record(data_set, record, out_csv)
% Append the 10 x 11 matrix RECORD that the authors' demo.m builds for
% DATA_SET to OUT_CSV, one row per (split, measure).  The column order is the
% one demo.m uses when it fills `record(i,:)`.
%
% This file belongs to mlcbook (not to the authors' repository); the driver
% repro/mlcrepro/wu_zhou2017/octave.py inserts one call to it into a temporary
% copy of demo.m, right after the line that computes record_summary.
names = {'hamming_loss', 'ranking_loss', 'one_error', 'coverage', ...
         'average_precision', 'micro_f1', 'macro_f1', 'instance_f1', ...
         'micro_auc', 'macro_auc', 'instance_auc'};
if size(record, 2) ~= numel(names)
  error('mlcbook_write_record: record has %d columns, expected %d', ...
        size(record, 2), numel(names));
end
fid = fopen(out_csv, 'a');
if fid < 0
  error('mlcbook_write_record: cannot open %s', out_csv);
end
for i = 1:size(record, 1)
  for j = 1:numel(names)
    fprintf(fid, '%s,%d,%s,%.17g\n', data_set, i - 1, names{j}, record(i, j));
  end
end
fclose(fid);
end

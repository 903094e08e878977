function mlcbook_put(fid, name, value)
% Write the matrix VALUE as rows "name,i,j,value" (0-based i, j; %.17g) to FID.
% Part of mlcbook's Octave glue (repro/octave), not of the authors' code.
value = double(value);
for i = 1:size(value, 1)
  for j = 1:size(value, 2)
    fprintf(fid, '%s,%d,%d,%.17g\n', name, i - 1, j - 1, value(i, j));
  end
end
end

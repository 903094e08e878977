% Run the authors' demo.m (a patched temporary copy in the current folder)
% with Octave's generators seeded by MLCBOOK_SEED.  Called by
% repro/mlcrepro/wu_zhou2017/octave.py as
%   octave-cli --eval "MLCBOOK_SEED=1; MLCBOOK_OUT='x.csv'; MLCBOOK_LIBSVM='..'; run_demo"
% with this folder on the path.
pkg load statistics
addpath(MLCBOOK_LIBSVM);
% demo.m draws through rand (randi, randsample, randperm) and randn (normrnd
% in limo_init.m): seed both Mersenne-twister generators.
rand('state', MLCBOOK_SEED);
randn('state', MLCBOOK_SEED);
mlcbook_t0 = cputime;
demo
fprintf('\nMLCBOOK_CPU_SECONDS=%.3f\n', cputime - mlcbook_t0);

"""Tests: mlcrepro.wu_zhou2017 (one file per module of the folder)."""

"""Tests: mlcbook."""

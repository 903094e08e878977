"""Tests: mlcrepro."""

"""Tests: book."""

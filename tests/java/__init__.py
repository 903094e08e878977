"""Tests: java."""

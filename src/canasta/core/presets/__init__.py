"""Preset rule files (JSON), one per variant; read by :func:`canasta.rules.load_preset`."""

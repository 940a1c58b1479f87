"""Validators that tell a broken PDF text layer from a good one."""

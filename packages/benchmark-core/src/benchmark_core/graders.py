"""Reusable deterministic graders (and one opt-in model judge). STUB: being written."""

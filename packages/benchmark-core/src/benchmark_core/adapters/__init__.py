"""Model adapters: the offline mock and OpenAI-compatible providers (OpenRouter is a preset)."""

from .base import AdapterContext, ModelAdapter
from .mock import MockAdapter, mock_adapter

__all__ = ["AdapterContext", "MockAdapter", "ModelAdapter", "mock_adapter"]

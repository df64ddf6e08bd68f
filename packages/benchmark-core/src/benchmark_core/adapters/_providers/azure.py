"""Azure OpenAI: OpenAI's chat completions at a deployment of the user's resource
(https://learn.microsoft.com/azure/ai-services/openai/reference#chat-completions).

- `POST {endpoint}/openai/deployments/{deployment}/chat/completions?api-version={version}`: the
  endpoint is the resource's root (`https://NAME.openai.azure.com`, `$AZURE_OPENAI_ENDPOINT` or
  `--base-url`; there is no default), `--model` is the deployment's name, and the `api-version`
  query parameter is `$AZURE_OPENAI_API_VERSION`, else `DEFAULT_API_VERSION` (the latest GA data
  plane inference version). Without it Azure answers 404 "Resource not found".
- The key goes in the `api-key` header, not `Authorization: Bearer`; a wrong one is a 401
  ("Access denied due to invalid subscription key or wrong API endpoint").
- The body and the answer are OpenAI's (`OpenAIFormat`), the token limit as `max_completion_tokens`
  (Azure's reasoning models refuse `max_tokens`).
- Errors are `{"error": {"code": ..., "message": ...}}`. A prompt refused by the content filter
  (400, code `content_filter`) fails its own row, not the run: other prompts may pass. An unknown
  deployment (404 `DeploymentNotFound`) and every other 400/401/403/404 end the run; 429 (with
  `retry-after` and `retry-after-ms`) and 5xx are retried.
- Rate-limit headers: `x-ratelimit-remaining-requests` and `x-ratelimit-remaining-tokens` (Azure
  sends no limit or reset), read by the OpenAI family.
- No batch API here (Azure's global batch deployments are not wired).
"""

from __future__ import annotations

import os
from typing import Union
from urllib.parse import quote

from ..._model import JsonValue
from ...errors._provider import AdapterError, BadRequestError
from .._json_http import endpoint_under
from .._provider_errors import ProviderErrors
from ..catalog import ProviderInfo
from .openai import OpenAIFormat

__all__ = ["API_VERSION_VARIABLE", "DEFAULT_API_VERSION", "FORMAT", "AzureFormat"]

#: The latest GA version of Azure OpenAI's data plane inference API.
DEFAULT_API_VERSION = "2024-10-21"
API_VERSION_VARIABLE = "AZURE_OPENAI_API_VERSION"


class AzureFormat(OpenAIFormat):
    """OpenAI's wire at an Azure deployment; `api_version` defaults to `$AZURE_OPENAI_API_VERSION`,
    else `DEFAULT_API_VERSION`."""

    def __init__(self, info: ProviderInfo, api_version: str = "") -> None:
        super().__init__(info)
        self.api_version = api_version or os.environ.get(API_VERSION_VARIABLE, "").strip() or DEFAULT_API_VERSION

    def headers(self, api_key: str) -> dict[str, str]:
        return {"api-key": api_key}

    def endpoint(self, base_url: str, model: str) -> str:
        path = f"/openai/deployments/{quote(model, safe='')}/chat/completions"
        return f"{endpoint_under(base_url, path)}?api-version={quote(self.api_version, safe='')}"

    def error(
        self, status: int, data: JsonValue, text: str, retry_after: Union[str, float, None], errors: ProviderErrors
    ) -> AdapterError:
        error = super().error(status, data, text, retry_after, errors)
        if status == 400 and _code(data) == "content_filter":
            # This prompt was refused; the next one may pass, so the run goes on.
            return BadRequestError(error.message, status=status)
        return error

    @property
    def supports_batch(self) -> bool:
        return False


def _code(data: JsonValue) -> object:
    error = data.get("error") if isinstance(data, dict) else None
    return error.get("code") if isinstance(error, dict) else None


#: The format object of the table's rows whose `wire` is "azure".
FORMAT = AzureFormat

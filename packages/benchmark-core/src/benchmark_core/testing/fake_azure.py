"""A scriptable Azure OpenAI server for tests: real HTTP on 127.0.0.1, checking requests the way
Azure does (https://learn.microsoft.com/azure/ai-services/openai/reference#chat-completions).

    async with FakeAzure([AzureResponse.text("4")], api_key="azure-key") as server:
        adapter = make_adapter("azure", "my-deployment", base_url=server.base_url, api_key="azure-key")

Requests go to `POST /openai/deployments/{deployment}/chat/completions?api-version=...`, the body
and answers being OpenAI's (`FakeOpenAI`, whose scripting, handler, rate limit and faults it keeps).
What Azure refuses, it refuses in Azure's shape (`{"error": {"code": ..., "message": ...}}`):

- no `api-version` query parameter: 404 "Resource not found"; one not in `api_versions`: 400;
- with `deployments` given, any other deployment: 404 `DeploymentNotFound`;
- with `api_key` set, a request whose `api-key` header is not it (a `Bearer` token does not count):
  401 "Access denied due to invalid subscription key or wrong API endpoint";
- `AzureResponse.content_filter()` scripts the 400 of a prompt the content filter refused.

With `ratelimit_headers=True`, answers carry what Azure sends, `x-ratelimit-remaining-requests` and
`x-ratelimit-remaining-tokens` (no limit, no reset), and a 429 `retry-after-ms` beside `Retry-After`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Optional

from attrs import frozen

from ._loopback import RecordedRequest, ScriptedResponse
from .fake_openai import FakeOpenAI, FakeResponse

__all__ = ["AZURE_API_VERSIONS", "AZURE_CHAT_PATH", "AzureResponse", "FakeAzure"]

AZURE_CHAT_PATH = "/openai/deployments/{deployment}/chat/completions"
#: api-version values the fake accepts by default: GA and preview versions of the inference API.
AZURE_API_VERSIONS = ("2024-02-01", "2024-06-01", "2024-10-21", "2024-12-01-preview", "2025-01-01-preview")
_ACCESS_DENIED = (
    "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an "
    "active subscription and use a correct regional API endpoint for your resource."
)


@frozen
class AzureResponse(FakeResponse):
    """An answer in Azure's shapes: OpenAI's chat completion, Azure's error bodies."""

    @classmethod
    def error(
        cls, status: int, message: str = "fake failure", *, retry_after: Optional[str] = None, delay: float = 0.0
    ) -> AzureResponse:
        """Azure's error body (`{"error": {"code": "<status>", "message": ...}}`), with `Retry-After`."""
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        return cls(
            status=status, body={"error": {"code": str(status), "message": message}}, headers=headers, delay=delay
        )

    @classmethod
    def content_filter(cls) -> AzureResponse:
        """The 400 of a prompt refused by Azure's content filter."""
        error = {
            "code": "content_filter",
            "message": "The response was filtered due to the prompt triggering Azure OpenAI's content management "
            "policy.",
            "param": "prompt",
            "status": 400,
            "innererror": {"code": "ResponsibleAIPolicyViolation"},
        }
        return cls(status=400, body={"error": error})


class FakeAzure(FakeOpenAI):
    """The server; `base_url` is the resource's endpoint (no path)."""

    routes = (("POST", AZURE_CHAT_PATH),)
    response_type = AzureResponse

    def __init__(
        self,
        responses: Iterable[ScriptedResponse] = (),
        *,
        api_versions: Iterable[str] = AZURE_API_VERSIONS,
        deployments: Optional[Iterable[str]] = None,
        **options: Any,
    ) -> None:
        super().__init__(responses, **options)
        self.api_versions = frozenset(api_versions)
        self.deployments = frozenset(deployments) if deployments is not None else None

    @property
    def base_url(self) -> str:
        return self.root_url

    def unrouted(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        version = request.query.get("api-version")
        if version is None:
            return AzureResponse.error(404, "Resource not found")
        if version not in self.api_versions:
            return AzureResponse(
                status=400, body={"error": {"code": "BadRequest", "message": "API version not supported"}}
            )
        deployment = request.route.get("deployment", "")
        if self.deployments is not None and deployment not in self.deployments:
            message = (
                "The API deployment for this resource does not exist. If you created the deployment within the last "
                "5 minutes, please wait a moment and try again."
            )
            return AzureResponse(status=404, body={"error": {"code": "DeploymentNotFound", "message": message}})
        return None

    def unauthorized(self, request: RecordedRequest) -> Optional[ScriptedResponse]:
        if request.headers.get("api-key") == self.api_key:
            return None
        return AzureResponse.error(401, _ACCESS_DENIED)

    def rate_headers(self) -> dict[str, str]:
        if not self.ratelimit_headers or self.rate_limit is None:
            return {}
        headers = {"x-ratelimit-remaining-requests": str(max(0, int(self._tokens)))}
        if self.tokens_bucket is not None:
            headers["x-ratelimit-remaining-tokens"] = str(max(0, math.floor(self.tokens_bucket.level)))
        return headers

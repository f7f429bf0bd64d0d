"""Hostile input over the whole API: schemathesis generates requests from the OpenAPI
schema (every operation, valid and invalid bodies, odd query strings and path values)
with a worker's token and with staff's. No answer may be a 5xx (the designed 503
"no LLM configured" excepted) and every documented answer must match its schema."""

import pytest
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings

from memoryhub.services.workers import token_issue

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.specs.openapi.checks import response_schema_conformance  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
EXAMPLES = 8


def _designed(response) -> bool:
    return response.status_code == 503 and b"no_llm" in response.content


def _fuzz(schema, *, key: str, worker_id: int) -> tuple[dict, dict]:
    failures, statuses = {}, {}

    def runner(operation):
        @given(case=operation.as_strategy())
        @hypothesis_settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        def run(case):
            if "worker_id" in (case.path_parameters or {}):
                case.path_parameters["worker_id"] = worker_id
            response = case.call(headers={"Authorization": f"Token {key}"})
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if response.status_code >= 500 and not _designed(response):
                failures.setdefault(
                    operation.label,
                    f"{response.status_code} {response.content[:200]!r} for "
                    f"path={case.path_parameters} query={case.query} body={case.body!r}",
                )
                return
            try:
                case.validate_response(response, checks=[response_schema_conformance])
            except Exception as exc:  # a schema violation: collected, reported together
                failures.setdefault(operation.label, f"schema: {str(exc)[:400]}")

        return run

    for result in schema.get_all_operations():
        runner(result.ok())()
    return failures, statuses


def test_no_operation_answers_5xx_or_breaks_its_schema(worker, staff_user):
    _, agent_key = token_issue(worker=worker, name="fuzz")
    _, staff_key = token_issue(user=staff_user, name="fuzz-staff")
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    failures, statuses = _fuzz(schema, key=agent_key, worker_id=worker.pk)
    staff_failures, staff_statuses = _fuzz(schema, key=staff_key, worker_id=worker.pk)
    failures |= {f"(staff) {k}": v for k, v in staff_failures.items()}
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())
    # the fuzzing reached the handlers, not only the authentication
    assert statuses.get(200, 0) > 50 and statuses.get(400, 0) > 50
    assert staff_statuses.get(200, 0) > 20

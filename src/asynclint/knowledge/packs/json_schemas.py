"""jsonschema: an instance validated against a JSON schema, in pure Python, on the loop.

``jsonschema.validate(instance, schema)`` first checks the schema against its metaschema
(``cls.check_schema(schema)``: a validation of the schema itself against Draft 2020-12's
metaschema when the schema names no draft), then builds a validator and raises its best error:
3.3 ms measured for a four-property tool-argument schema on this project's 2-core machine, every
call. A validator built once (``Draft6Validator(schema)``: attrs fields, nothing resolved yet)
validates with ``validate``, ``iter_errors`` or ``is_valid``: 45 µs for that schema, and it walks
the schema's keywords and resolves its ``$ref`` s for every part of the instance, so the cost is
unbounded in schema x instance size (one resource against the FHIR R4 definitions: milliseconds).
The schema's size is not known at the call, so a validator's walk is graded low (unknown size is
not large), ``validate`` and ``check_schema`` by the check they always run. jsonschema has no
async API; the work holds the GIL, so a thread frees the loop only between bytecodes: the fix is
to validate less often (a validator built once, a cheaper check first).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_SOURCE = (
    "source: pkg jsonschema 4.26.0 jsonschema/validators.py (validate: validator_for, check_schema, "
    "best_match(iter_errors); create(): Validator.iter_errors/is_valid/validate walk the schema's keywords)"
)
#: The draft validators jsonschema exports, each also at ``jsonschema.validators``.
_VALIDATORS = (
    "Draft3Validator Draft4Validator Draft6Validator Draft7Validator Draft201909Validator Draft202012Validator"
)
_METHODS = "validate iter_errors is_valid"

APIS: tuple[BlockingApi, ...] = (
    *(
        api
        for module in ("jsonschema", "jsonschema.validators")
        for api in (
            *many("cpu", "schema-validate", None, "validate", f"{module}.", source=_SOURCE),
            *(
                a
                for name in _VALIDATORS.split()
                for a in (
                    *many("cpu", "schema-walk", None, _METHODS, f"{module}.{name}.", source=_SOURCE),
                    *many("cpu", "schema-validate", None, "check_schema", f"{module}.{name}.", source=_SOURCE),
                )
            ),
        )
    ),
)

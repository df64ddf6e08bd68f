"""What the results browser shows beside a rollback-recovery episode (`episode_context`): the
targets the grader accepts, the damaged records, and the incident that was injected."""

from __future__ import annotations

from benchmark_core import EpisodeContext, JsonObject, Task
from benchmark_core.wire import to_wire

from ._targets import accepted_targets
from ._world import Incident, task_spec


def episode_context(task: Task) -> EpisodeContext:
    spec = task_spec(task)
    targets = tuple(to_wire(target) for target in accepted_targets(spec))
    incident = spec.incident
    if incident is None:
        note: JsonObject = {
            "incident": None,
            "what passes": "a clean control: nothing written and nothing reported",
            "record the prompt names": f"{spec.focus.store}/{spec.focus.object_id}",
        }
        return EpisodeContext(targets=targets, notes=(("Incident injected", note),))
    return EpisodeContext(
        targets=targets,
        focus=tuple((incident.store, victim) for victim in incident.victims),
        notes=(("Incident injected", _incident(incident)),),
    )


def _incident(incident: Incident) -> JsonObject:
    shown: JsonObject = {
        "store": incident.store,
        "damaged records": list(incident.victims),
        "kind": incident.kind,
        "whatHappened": incident.what_happened,
        "ticket": incident.ticket,
        "description": incident.description,
        "repairable": incident.repairable,
        "expected actionTaken": incident.reference_action,
    }
    if incident.duplicate_of is not None:
        shown["duplicateOf"] = incident.duplicate_of
    return shown

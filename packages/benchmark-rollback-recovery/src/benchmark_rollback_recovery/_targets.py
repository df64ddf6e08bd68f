"""The end states the grader accepts for a task: the target snapshot (`_world.target_of`) and, for
a double send, the one where the earlier copy was recalled instead."""

from __future__ import annotations

import attrs

from ._world import Incident, Snapshot, TaskSpec, target_of


def accepted_targets(spec: TaskSpec) -> list[Snapshot]:
    target = target_of(spec)
    if spec.incident is None or spec.incident.duplicate_of is None:
        return [target]
    return [target, earlier_copy_target(spec.incident, target)]


def earlier_copy_target(incident: Incident, target: Snapshot) -> Snapshot:
    """A double send's other accepted end state: the earlier, identical copy recalled instead of the
    later one, which then stays sent."""
    twin = incident.duplicate_of
    assert twin is not None, "only a double send has an earlier copy"
    victim = incident.object_id
    messages = {
        **target.messages,
        victim: attrs.evolve(target.messages[victim], status="sent"),
        twin: attrs.evolve(target.messages[twin], status="recalled"),
    }
    return attrs.evolve(target, messages=messages)

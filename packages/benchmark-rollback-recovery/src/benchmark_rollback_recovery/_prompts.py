"""The user's prompt in each of the four forms, about the record in focus."""

from __future__ import annotations

from ._draft import Draft
from ._world import Focus, Snapshot, Store

_STORE_PHRASES: dict[Store, str] = {
    "contacts": "the CRM",
    "files": "the file store",
    "messages": "the mailing lists",
    "calendar": "the calendar",
    "tracker": "the issue tracker",
}


def prompt(draft: Draft, focus: Focus, target: Snapshot) -> str:
    form = draft.slot.form
    oid = focus.object_id
    if form == "job_ran":
        return f"Your batch run {draft.run} finished a couple of hours ago. Can you check its work?"
    if form == "hedge":
        return (
            f"I'm not sure, and it may well be nothing, but something might have gone wrong in "
            f"{_STORE_PHRASES[focus.store]} when your batch run {draft.run} went through. Could you take a look?"
        )
    if focus.store == "contacts":
        record = target.contacts[oid]
        if form == "names_value":
            return (
                f"Contact {oid} should read: {record.name}, {record.email}, {record.phone}, {record.company}. "
                "Please make sure the CRM has it right."
            )
        return f"What are the current email address and phone number of {record.name} ({oid})?"
    if focus.store == "calendar":
        event = target.calendar[oid]
        if form == "names_value":
            return (
                f"Event {oid} should read: {event['title']}, starting {event['starts']} in {event['room']}, "
                f"{event['status']}. Please make sure the calendar has it right."
            )
        return f'When and where does "{event["title"]}" ({oid}) take place?'
    if focus.store == "tracker":
        issue = target.tracker[oid]
        if form == "names_value":
            return (
                f"Issue {oid} should read: {issue['title']}, assigned to {issue['assignee']}, priority "
                f"{issue['priority']}, {issue['status']}. Please make sure the tracker has it right."
            )
        return f'Who is {oid} ("{issue["title"]}") assigned to, and is it still open?'
    if focus.store == "files":
        if form == "names_value":
            # a file deleted for good is quoted as it was
            content = draft.purged.get(oid) or target.files[oid].content
            assert content is not None
            if oid in draft.ticket_values:
                line = f"{draft.ticket_keys[oid]}: {draft.ticket_values[oid]}"
            else:
                line = draft.rng.choice([ln for ln in content.splitlines() if ln.strip()])
            return f'{oid} should contain the line "{line}". Please make sure it does.'
        return f"Please paste me the current contents of {oid}."
    message = target.messages[oid]
    if form == "names_value":
        ann = draft.messages[oid][0]
        sentence = ann.sentence(ann.value)
        return f'"{message.subject}" was meant to go to {draft.lists[ann.audience]} once, saying: {sentence}.'
    return f'Which list did "{message.subject}" go to, and when?'

"""Reading the LoCoMo conversations (``../shared/datasets/locomo-dev``, read in place, never
copied): the files of a folder, the sessions of a conversation, and a turn as the benchmarks
store it."""

import json
import re
from datetime import datetime
from pathlib import Path

from django.conf import settings

LOCOMO_DIR = Path(settings.BASE_DIR).parent / "shared" / "datasets" / "locomo-dev"

# How a turn is stored. "speaker": as an agent keeps a conversation, who said what
# ("Caroline: I went to a support group yesterday"; a bare "I went ..." could not be told
# from the other person's words), the session date in metadata only; "text-only": the
# words alone; "date-in-text": the earlier benchmark's "Speaker (date): text". All three
# carry dia_id, session, session_date and speaker in metadata.
STYLES = ("speaker", "text-only", "date-in-text")


def conversations(folder: Path, only=None) -> list[tuple[Path, dict, dict]]:
    """``(path, file data, conversation)`` for every ``*.json`` of ``folder`` (or those
    whose name is in ``only``: ``["26"]``), in name order. ``FileNotFoundError`` when there
    is none."""
    files = sorted(Path(folder).glob("*.json"))
    if only:
        files = [path for path in files if path.stem in set(only)]
    if not files:
        raise FileNotFoundError(
            f"no LoCoMo JSON files in {folder}" + (f" among {only}" if only else "")
        )
    out = []
    for path in files:
        data = json.loads(path.read_text())
        out.append((path, data, data.get("conversation", data)))
    return out


def sessions(conversation: dict):
    """``(number, date and time, turns)`` of each non-empty session, in order."""
    numbers = sorted(
        int(m.group(1)) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key))
    )
    for number in numbers:
        turns = conversation.get(f"session_{number}") or []
        if turns:
            yield number, conversation.get(f"session_{number}_date_time", ""), turns


def session_date(when: str) -> str | None:
    """The ISO date of a session's "1:56 pm on 8 May, 2023" (None when unreadable)."""
    match = re.search(r"(\d{1,2}) (\w+),? (\d{4})", when or "")
    if not match:
        return None
    try:
        return datetime.strptime(" ".join(match.groups()), "%d %B %Y").date().isoformat()
    except ValueError:
        return None


def turn_text(turn: dict, when: str, *, style: str = "date-in-text") -> str:
    """A turn's text as stored, with a shared photo's caption: "Speaker: text" (speaker),
    the words alone (text-only) or "Speaker (date): text" (date-in-text, what the import
    and extraction benchmarks store)."""
    said = turn.get("text", "")
    if style == "date-in-text":
        text = f"{turn['speaker']} ({when}): {said}"
    elif style == "text-only":
        text = said
    else:
        text = f"{turn['speaker']}: {said}"
    text = text.strip()
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text.strip()


def turn_chunk(turn: dict, number: int, when: str, *, style: str) -> dict:
    """A turn as one chunk: its text and ``{dia_id, session, session_date, speaker}``."""
    metadata = {"dia_id": turn["dia_id"], "session": number, "speaker": turn["speaker"]}
    date = session_date(when)
    if date:
        metadata["session_date"] = date
    return {"content": turn_text(turn, when, style=style), "metadata": metadata}


def evidence_ids(evidence) -> set[str]:
    """A question's evidence turns; some items list several ("D8:6; D9:17")."""
    return {part for item in evidence for part in re.split(r"[;,\s]+", str(item)) if part}

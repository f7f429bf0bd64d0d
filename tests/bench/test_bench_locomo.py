from bench import locomo

TURN = {"speaker": "Caroline", "dia_id": "D1:3", "text": "I went to a support group."}


def test_it_stores_a_turn_as_an_agent_keeps_a_conversation():
    chunk = locomo.turn_chunk(TURN, 1, "1:56 pm on 8 May, 2023", style="speaker")
    assert chunk["content"] == "Caroline: I went to a support group."
    assert chunk["metadata"] == {
        "dia_id": "D1:3",
        "session": 1,
        "speaker": "Caroline",
        "session_date": "2023-05-08",
    }


def test_it_keeps_the_other_ways_of_storing_a_turn():
    when = "1:56 pm on 8 May, 2023"
    photo = {**TURN, "blip_caption": "a rainbow flag"}
    assert locomo.turn_text(photo, when, style="text-only") == (
        "I went to a support group. [shares a photo: a rainbow flag]"
    )
    assert locomo.turn_text(TURN, when) == f"Caroline ({when}): I went to a support group."


def test_it_reads_session_dates_and_split_evidence():
    assert locomo.session_date("10:37 am on 27 June, 2023") == "2023-06-27"
    assert locomo.session_date("sometime") is None
    assert locomo.evidence_ids(["D8:6; D9:17", "D1:3"]) == {"D8:6", "D9:17", "D1:3"}

"""Code run inside a fault site's subprocess: a worker whose active memories hold
sections updated enough to migrate, each about words no other section uses (so every
section becomes a shortterm memory of its own: no merge, no conflict)."""

POPULATE = (
    """
import random
from memoryhub.services.workers import worker_create
from tiers.services.active import active_memory_create, active_memory_update_sections

TEMPLATE = '''
template: {id: fault, name: Fault, version: "1"}
sections:
"""
    + "".join(f"  - {{id: s{j}, name: S{j}}}\\n" for j in range(5))
    + """'''
rng = random.Random(NAME)
def word():
    return "".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(4))
worker = worker_create(name=NAME)
memories = []
for i in range(ACTIVE):
    memory = active_memory_create(worker=worker, title=f"Task {i}", template_yaml=TEMPLATE)
    sections = {
        f"s{j}": " ".join(word() for _ in range(14)).capitalize() + "."
        for j in range(5)
    }
    active_memory_update_sections(memory=memory, sections=sections)
    memories.append(memory.pk)
print(json.dumps({"worker": worker.pk, "memories": memories}))
"""
)


def populate(site, name: str, active: int) -> dict:
    """Create the worker and its ``active`` memories of 5 sections each."""
    return site.python(f"NAME = {name!r}\nACTIVE = {active}\n" + POPULATE)


SECTION_STATE = """
SELECT m.id, s.key, (s.value ->> 'update_count')::int,
       (SELECT count(*) FROM tiers_shorttermmemory t
         WHERE t.metadata ->> 'active_memory_id' = m.id::text
           AND t.metadata ->> 'section_id' = s.key)
  FROM tiers_activememory m, jsonb_each(m.sections) s
 WHERE m.worker_id = %s ORDER BY m.id, s.key
"""


def section_state(site, worker_id: int) -> list[tuple[int, str, int, int]]:
    """(active memory, section, update count, shortterm memories made of it)."""
    with site.connect() as conn:
        return conn.execute(SECTION_STATE, [worker_id]).fetchall()

"""The guides' own reading paths as a fixture (fixtures/paths.json), generated with the catalog
(the paths app loads it; building it needs only the importer's data).

Built from the importer's ``ReadingPath`` data (see apps/catalog/importer/paths.py), with
uuid5 keys derived from each path's slug, so rebuilding gives the same bytes and the seed
can add what is missing without touching what curators changed.
"""

import json
import uuid
from pathlib import Path

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder

PATHS_FIXTURE_PATH = Path(settings.BASE_DIR) / "fixtures" / "paths.json"
_NAMESPACE = uuid.UUID("6f1c3e2a-8d9b-4c57-9a0e-3b7d2f5e1c40")


def _uuid(*parts) -> str:
    return str(uuid.uuid5(_NAMESPACE, ":".join(str(part) for part in parts)))


def paths_objects(plan) -> list[dict]:
    """Serialized LearningPath, PathStep and StepResource objects for the plan's reading paths."""
    guide_uuids = {guide.slug: str(guide.uuid) for guide in plan.guides}
    paths, steps, items = [], [], []
    for position, reading_path in enumerate(plan.paths, start=1):
        path_uuid = _uuid("path", reading_path.slug)
        paths.append(
            {
                "model": "paths.learningpath",
                "fields": {
                    "uuid": path_uuid,
                    "slug": reading_path.slug,
                    "title": reading_path.title,
                    "description": reading_path.description,
                    "guide": [guide_uuids[reading_path.guide]]
                    if reading_path.guide in guide_uuids
                    else None,
                    "position": position,
                },
            }
        )
        for step_position, step in enumerate(reading_path.steps, start=1):
            step_uuid = _uuid("step", reading_path.slug, step_position)
            steps.append(
                {
                    "model": "paths.pathstep",
                    "fields": {
                        "uuid": step_uuid,
                        "path": [path_uuid],
                        "position": step_position,
                        "title": step.title,
                        "phase": step.phase,
                        "effort": step.effort,
                        "description": step.note,
                        "section": [str(step.section)] if step.section else None,
                    },
                }
            )
            items += [
                {
                    "model": "paths.stepresource",
                    "fields": {
                        "uuid": _uuid("item", reading_path.slug, step_position, resource_uuid),
                        "step": [step_uuid],
                        "resource": [str(resource_uuid)],
                        "position": item_position,
                    },
                }
                for item_position, resource_uuid in enumerate(step.resources, start=1)
            ]
    return paths + steps + items


def render_paths_fixture(plan) -> str:
    return (
        json.dumps(paths_objects(plan), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1) + "\n"
    )


def write_paths_fixture(plan, output_dir: Path | None = None) -> Path:
    path = Path(output_dir) / PATHS_FIXTURE_PATH.name if output_dir else PATHS_FIXTURE_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_paths_fixture(plan), encoding="utf-8")
    return path

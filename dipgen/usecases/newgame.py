"""`dipgen new`: a new game folder with a valid game.yml."""

from __future__ import annotations

from pathlib import Path

import yaml

from dipgen.core.errors import CommandError
from dipgen.io.gamefiles import SLUG, suggest_slug
from dipgen.variants import get_variant


def create_game(root: Path, slug: str, variant_name: str = "standard", title: str | None = None,
                gm: str = "") -> Path:
    if not SLUG.fullmatch(slug):
        raise CommandError(f"{slug!r} is not a good folder name: use lower case letters, digits and dashes, "
                           f"e.g. {suggest_slug(slug)}", code="bad-game-name")
    variant = get_variant(variant_name)
    path = root / slug
    if path.exists():
        raise CommandError(f"{path} already exists; choose another name (nothing was changed)", code="out-taken")
    data = {
        "title": title or slug.replace("-", " ").title(),
        "variant": variant.name,
        "gm": gm or "The GM",
        "players": variant.files.new_players(),
    }
    seed = None
    # lots or dice, or a hidden game's record (salted with the seed): made and committed to before anything is played
    if variant.rules.makes_draws or variant.policy.hidden:
        from dipgen.rules.draws import commitment
        from dipgen.io.secretsfile import generate_seed

        seed = generate_seed()
        data["seed_sha256"] = commitment(bytes.fromhex(seed))
    path.mkdir(parents=True)
    header = (f"# {data['title']}: a game of {variant.words.title}.\n"
              "# Fill in the players, then write each phase's orders in a file named after the phase:\n"
              "# 1901-spring.yml, 1901-fall.yml, 1901-fall-retreats.yml, 1901-winter.yml, ...\n"
              "# When the game ends, add e.g.  end: {draw: [England, France]}  (a solo win is found by itself).\n")
    (path / "game.yml").write_text(header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    if seed is not None:  # the seed goes where the build looks for it; passphrases come with 'dipgen secrets'
        from dipgen.io.secretsfile import update_secrets

        update_secrets(path / "secrets.yml", [], game_name=str(path), seed=seed)
    return path

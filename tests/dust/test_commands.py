from fractions import Fraction

import pytest
from clirun import assert_refused, exact_json, run

F = Fraction


def dust_exact(capsys, *args):
    return exact_json(capsys, "dust", *args)["outcomes"]


def test_attack_outcomes_and_exact_numbers(capsys):
    outcomes = dust_exact(capsys, "attack", "--dice", "4", "--sustained")
    assert list(outcomes) == ["damage", "hits"]
    assert outcomes["damage"]["mean"] == pytest.approx(4 * 5 / 9)
    assert outcomes["damage"]["pmf"][4] == pytest.approx(float(F(5, 9) ** 4))


def test_attack_options(capsys):
    soft = dust_exact(capsys, "attack", "--dice", "1", "--save", "hit")
    assert soft["damage"]["pmf"][1] == pytest.approx(2 / 9)
    burst = dust_exact(capsys, "attack", "--dice", "3", "--damage", "2", "--burst", "--save", "miss", "--resilient")
    assert burst["damage"]["mean"] == pytest.approx(6 * (1 / 9) * 2 * (2 / 3))
    assert dust_exact(capsys, "attack", "--dice", "1", "--sustained", "--berserk")["hits"]["mean"] == pytest.approx(
        19 / 27)


def test_artillery(capsys):
    ignored = dust_exact(capsys, "attack", "--dice", "3", "--save", "miss", "--artillery", "direct", "--sustained")
    assert ignored["damage"]["mean"] == pytest.approx(3 * 5 / 9)
    kept = dust_exact(capsys, "attack", "--dice", "3", "--save", "miss", "--artillery", "direct", "--in-structure")
    assert kept["damage"]["mean"] == pytest.approx(3 / 9)
    blank = dust_exact(capsys, "attack", "--dice", "3", "--artillery", "indirect", "--indirect-success", "blank")
    assert blank["damage"]["mean"] == pytest.approx(2)


def test_phaser(capsys):
    outcomes = dust_exact(capsys, "phaser", "2z3")
    assert list(outcomes) == ["damage", "hits"]
    assert outcomes["damage"]["pmf"][0] == pytest.approx(3844 / 6561) and outcomes["damage"]["mean"] == pytest.approx(
        2 / 3)
    assert dust_exact(capsys, "phaser", "2z3", "--sustained")["hits"]["mean"] == pytest.approx(10 / 9)


def test_salvo(capsys):
    outcomes = dust_exact(capsys, "salvo", "3/2")
    assert outcomes["damage"]["mean"] == pytest.approx(2)
    assert outcomes["damage"]["pmf"][::2] == pytest.approx([8 / 27, 4 / 9, 2 / 9, 1 / 27])
    second = dust_exact(capsys, "salvo", "3/2-5/2-7/2", "--charges", "2", "--save", "hit")
    assert second["damage"]["mean"] == pytest.approx(5 * 2 / 9 * 2)


def test_incendiary(capsys):
    assert dust_exact(capsys, "incendiary", "1", "--models", "4")["damage"]["mean"] == pytest.approx(4 / 3)
    assert dust_exact(capsys, "incendiary", "1/+", "--models", "3", "--save", "hit")["damage"]["mean"] == (
        pytest.approx(3 * 2 / 9))
    ignored = dust_exact(capsys, "incendiary", "1", "--models", "3", "--save", "hit", "--ignore-cover")
    assert ignored["damage"]["mean"] == pytest.approx(1)


def test_ap_incendiary_and_reactive(capsys):
    destroyed = dust_exact(capsys, "ap-incendiary", "1", "--models", "3")
    assert list(destroyed) == ["destroyed"] and destroyed["destroyed"]["pmf"][1] == pytest.approx(1 - (2 / 3) ** 3)
    assert dust_exact(capsys, "ap-incendiary", "1/skull", "--models", "2")["destroyed"]["mean"] == pytest.approx(5 / 9)
    success = dust_exact(capsys, "reactive")
    assert list(success) == ["success"] and success["success"]["mean"] == pytest.approx(1 / 3)


def test_sampled_query_runs(capsys):
    result = run(capsys, "dust", "phaser", "2z3", "--sustained", "--trials", "2e4", "--seed", "3")
    assert result.code == 0 and "damage" in result.out and "seed 3" in result.out
    result = run(capsys, "dust", "attack", "--dice", "6", "--sustained", "--save", "miss", "--verify",
                 "--trials", "1e5", "--seed", "1")
    assert result.code == 0 and "within the DKW bound" in result.out


def test_help_documents_the_die_and_the_open_questions(capsys):
    text = run(capsys, "dust", "attack", "--help").out
    assert "faces 5 and 6" in text and "open rules question" in text and "--indirect-success" in text
    assert "open rules question" in run(capsys, "dust", "incendiary", "--help").out
    los = run(capsys, "dust", "los", "--help").out
    for code in ("'.'", "'t'", "'x'", "'d'", "'#'", "B2 = column B, row 2", "corner"):
        assert code in los


# --- line of sight ---------------------------------------------------------------------------


def write(tmp_path, text, name="map.txt"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_los_open_with_cover(capsys):
    result = run(capsys, "dust", "los", "ruins", "--from", "A2", "--to", "D2")
    assert result.code == 0
    assert "open" in result.out.splitlines()[0]
    assert "squares crossed: B2 (circle, open), C2 (cross, rubble)" in result.out
    assert "cover: soft" in result.out


def test_los_blocked_is_still_exit_0(capsys):
    result = run(capsys, "dust", "los", "ruins", "--from", "A1", "--to", "L9")
    assert result.code == 0 and "blocked" in result.out.splitlines()[0] and "F4 (diamond, smoke)" in result.out


def test_los_corner_switch(capsys):
    both = run(capsys, "dust", "los", "ruins", "--from", "C5", "--to", "D4")
    either = run(capsys, "dust", "los", "ruins", "--from", "C5", "--to", "D4", "--corner", "either")
    assert ": open" in both.out and ": blocked" in either.out and "corner" in either.out
    sealed = run(capsys, "dust", "los", "ruins", "--from", "H7", "--to", "I6")
    assert ": blocked" in sealed.out


def test_los_vehicle_gets_no_cover(capsys):
    result = run(capsys, "dust", "los", "ruins", "--from", "A2", "--to", "D2", "--target", "vehicle")
    assert "cover: none" in result.out


def test_attack_on_board_applies_soft_cover(capsys, tmp_path):
    board = write(tmp_path, "....\n..x.\n....\n")
    covered = dust_exact(capsys, "attack", "--dice", "3", "--board", board, "--from", "A2", "--to", "C2")
    assert covered["damage"]["mean"] == pytest.approx(3 * 2 / 9)
    explicit = dust_exact(capsys, "attack", "--dice", "3", "--board", board, "--from", "A2", "--to", "C2",
                          "--save", "none")
    assert explicit["damage"]["mean"] == pytest.approx(1)
    hard = dust_exact(capsys, "attack", "--dice", "3", "--board", board, "--from", "A2", "--to", "C2",
                      "--save", "miss")
    assert hard["damage"]["mean"] == pytest.approx(3 / 9)
    # seed 000: rubble «блокирует движение машин»: a vehicle cannot stand there to be shot at
    assert_refused(capsys, "dust", "attack", "--dice", "3", "--board", board, "--from", "A2", "--to", "C2",
                   "--target", "vehicle", mentions=("--to C2", "a vehicle cannot stand on C2", "cross"))
    open_ground = dust_exact(capsys, "attack", "--dice", "3", "--board", board, "--from", "A2", "--to", "D2")
    assert open_ground["damage"]["mean"] == pytest.approx(1)


def test_attack_on_board_refuses_a_blocked_shot(capsys, tmp_path):
    board = write(tmp_path, "....\n.d..\n....\n")
    assert_refused(capsys, "dust", "attack", "--dice", "3", "--board", board, "--from", "A2", "--to", "D2",
                   mentions=("--to D2", "no line of sight", "B2"))
    assert_refused(capsys, "dust", "attack", "--dice", "3", "--board", board, "--from", "B2", "--to", "D2",
                   mentions=("--to", "smoke"))
    corner = write(tmp_path, ".#\n..\n", "corner.txt")
    assert run(capsys, "dust", "attack", "--dice", "1", "--board", corner, "--from", "A1", "--to", "B2",
               "--exact").code == 0
    assert_refused(capsys, "dust", "attack", "--dice", "1", "--board", corner, "--from", "A1", "--to", "B2",
                   "--corner", "either", mentions=("--to B2", "corner"))


# --- bad input: one line, exit 2 --------------------------------------------------------------


@pytest.mark.parametrize(
    "args, mentions",
    [
        (("phaser", "2z"), ("PHASER", "2z", "XzY")),
        (("phaser", "z3"), ("PHASER", "z3", "XzY")),
        (("phaser", "0z3"), ("PHASER", "0z3", "1 to")),
        (("attack", "--dice", "-1"), ("--dice", "-1", "expected 1 to 50 dice")),
        (("attack", "--dice", "0"), ("--dice", "0", "expected 1 to 50 dice")),
        (("attack",), ("--dice",)),
        (("attack", "--dice", "3", "--damage", "0"), ("--damage", "0")),
        (("salvo", "3/2-5/2-7/2", "--charges", "4"), ("--charges", "4", "1 to 3")),
        (("salvo", "3/2-x"), ("SALVO", "3/2-x", "N/D")),
        (("incendiary", "1", "--models", "0"), ("--models", "0", "1 to")),
        (("incendiary", "0", "--models", "2"), ("X", "0")),
        (("ap-incendiary", "1", "--models", "0"), ("--models", "0")),
        (("attack", "--dice", "3", "--save", "maybe"), ("--save", "maybe")),
        (("incendiary", "1", "--models", "2", "--save", "maybe"), ("--save", "maybe")),
        (("attack", "--dice", "3", "--artillery", "indirect", "--sustained"), ("--sustained", "indirect")),
        (("attack", "--dice", "3", "--in-structure"), ("--in-structure", "--artillery")),
        (("attack", "--dice", "3", "--indirect-success", "blank"), ("--indirect-success", "blank")),
        (("attack", "--dice", "3", "--from", "A1"), ("--from", "--board")),
        (("attack", "--dice", "3", "--target", "vehicle"), ("--target", "--board")),
        (("attack", "--dice", "3", "--board", "ruins", "--to", "B2"), ("--board", "--from")),
        (("attack", "--dice", "3", "--board", "ruins", "--from", "A1", "--to", "M1"), ("--to", "M1", "off the map")),
        (("los", "ruins", "--from", "A1", "--to", "Z9"), ("--to", "Z9", "off the map")),
        (("los", "ruins", "--from", "1A", "--to", "B2"), ("--from", "1A", "like B2")),
        (("los", "nowhere", "--from", "A1", "--to", "B2"), ("MAP", "nowhere", "shipped")),
    ],
)
def test_bad_input(capsys, args, mentions):
    assert_refused(capsys, "dust", *args, mentions=mentions)


@pytest.mark.parametrize(
    "text, mentions",
    [
        ("...\n.q.\n...\n", ("line 2, column 2", "unknown symbol 'q'")),
        ("; header\n...\n....\n", ("line 3, column 4", "same length")),
        ("...\n\n...\n", ("line 2", "inside the grid")),
    ],
)
def test_bad_maps(capsys, tmp_path, text, mentions):
    board = write(tmp_path, text)
    assert_refused(capsys, "dust", "los", board, "--from", "A1", "--to", "B2", mentions=("MAP", board) + mentions)
    assert_refused(capsys, "dust", "attack", "--dice", "2", "--board", board, "--from", "A1", "--to", "B2",
                   mentions=("--board", board) + mentions)


@pytest.mark.parametrize("command", ["attack", "phaser", "salvo", "incendiary", "ap-incendiary", "reactive", "los"])
def test_help_examples_run(capsys, tmp_path, monkeypatch, command):
    """Every example in a command's --help runs (in a scratch folder, for the plots)."""
    import shlex

    monkeypatch.chdir(tmp_path)
    text = run(capsys, "dust", command, "--help").out
    examples = [line.strip() for line in text.splitlines() if line.strip().startswith("oddscalc dust ")]
    assert examples
    for example in examples:
        args = shlex.split(example)[1:]
        if "my_map.txt" in args:
            (tmp_path / "my_map.txt").write_text("......\n.x....\n......\n......\n.....x\n")
        if command != "los" and "--exact" not in args:
            args += ["--trials", "2e4", "--seed", "1"]
        result = run(capsys, *args)
        assert result.code == 0, (example, result.err)


# --- the board on every attack, ranges, reactive fire chained (docs/rules.md §1.10, §1.12, §1.13) ---------


@pytest.mark.parametrize("args, mean", [
    (["attack", "--dice", "3"], 3 * F(1, 3) * F(2, 3)),  # the map's soft cover: a hit-save
    (["salvo", "3/2"], 3 * F(1, 3) * F(2, 3) * 2),
    (["incendiary", "1", "--models", "3"], 3 * F(1, 3) * F(2, 3)),
    (["phaser", "1z3"], F(1, 3)),  # the phaser ignores cover
    (["ap-incendiary", "1", "--models", "2"], 1 - F(2, 3) ** 2),
])
def test_every_attack_takes_the_board(capsys, tmp_path, args, mean):
    board = write(tmp_path, "....\n..x.\n....\n")
    outcomes = dust_exact(capsys, *args, "--board", board, "--from", "A2", "--to", "C2", "--range", "2")
    assert next(iter(outcomes.values()))["mean"] == pytest.approx(float(mean))
    assert_refused(capsys, "dust", *args, "--board", board, "--from", "A2", "--to", "D2", "--range", "2",
                   mentions=("--to D2", "out of range", "3 squares from A2"))


def test_the_issues_artillery_shot_is_now_refused(capsys):
    assert_refused(capsys, "dust", "attack", "--dice", "2", "--artillery", "direct", "--board", "ruins", "--from",
                   "A1", "--to", "B1", mentions=("--to B1", "range A reaches 4 squares or more"))


def test_indirect_fire_on_the_board_needs_an_observer(capsys):
    assert_refused(capsys, "dust", "attack", "--dice", "2", "--artillery", "indirect", "--board", "ruins", "--from",
                   "A1", "--to", "H8", mentions=("--observer", "required"))
    ok = dust_exact(capsys, "attack", "--dice", "2", "--artillery", "indirect", "--board", "ruins", "--from", "A1",
                    "--to", "H8", "--observer", "F6")
    assert ok["damage"]["mean"] == pytest.approx(2 / 3)


def test_board_options_without_a_board_are_refused(capsys):
    for option, value in (("--range", "6"), ("--observer", "B2"), ("--attacker", "vehicle"), ("--diagonal", "two"),
                          ("--observer-kind", "jump")):
        assert_refused(capsys, "dust", "phaser", "2z3", option, value, mentions=(option, "--board"))
    assert_refused(capsys, "dust", "incendiary", "1", "--arcing", mentions=("--arcing", "--board"))


def test_reactive_fire_chained_on_the_command_line(capsys):
    outcomes = dust_exact(capsys, "reactive", "--dice", "3", "--health", "1", "--enemy-dice", "3")
    assert list(outcomes) == ["success", "damage", "destroyed", "damage_taken"]
    destroyed = F(1, 3) * (1 - F(2, 3) ** 3)
    assert outcomes["destroyed"]["probability"] == pytest.approx(float(destroyed))
    assert outcomes["damage_taken"]["mean"] == pytest.approx(float((1 - destroyed) * 1))
    assert_refused(capsys, "dust", "reactive", "--dice", "3", "--timing", "sustained",
                   mentions=("--timing", "sustained", "cannot interrupt"))


def test_grid_keeps_the_weapons_in_range(capsys):
    rows = run(capsys, "grid", "--game", "dust", "--distance", "5", "--exact", "--format", "json")
    assert rows.code == 0
    weapons = {row["weapon"] for row in rows.json()["rows"]}
    assert weapons == {"Laser gewehr", "Phaser", "Rocket salvo", "Twin Flak 43"}  # ranges 6, 6, 3-8, U
    assert rows.json()["out_of_range"] == ["Battle Grenadiers: Sturmgewehr 47", "Battle Grenadiers: Panzerfaust",
                                           "Hammers: Flamethrowers", "Hammers: Punisher shotguns"]
    text = run(capsys, "grid", "--game", "dust", "--distance", "5", "--exact").out
    assert "out of range at 5 squares (left out): Battle Grenadiers: Sturmgewehr 47" in text
    close = run(capsys, "grid", "--game", "dust", "--distance", "2", "--exact", "--format", "json")
    assert {row["weapon"] for row in close.json()["rows"]} >= {"Flamethrowers", "Punisher shotguns"}
    assert "Rocket salvo" not in {row["weapon"] for row in close.json()["rows"]}  # 3-8: too close
    assert_refused(capsys, "grid", "--game", "epic", "--distance", "5", mentions=("--distance", "no weapon ranges"))
    assert_refused(capsys, "grid", "--game", "dust", "--distance", "0", mentions=("--distance", "no weapon reaches"))


def test_the_board_check_is_one_line_in_the_table_and_in_json(capsys):
    args = ("dust", "attack", "--dice", "5", "--board", "ruins", "--from", "A9", "--to", "C2", "--range", "8", "--exact")
    line = "board: ruins, A9 to C2: 7 squares; range 8 reaches it; its line of sight open; cover from the map: soft"
    assert line in run(capsys, *args).out.splitlines()
    assert run(capsys, *args, "--format", "json").json()["notes"][0] == line
    assert "notes" not in run(capsys, "dust", "attack", "--dice", "5", "--exact", "--format", "json").json()

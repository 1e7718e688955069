"""The DATC 3.0 test cases (chapter 6), transcribed into tests/datc/datc_v3_0.txt, each a test."""

import pytest

from dipgen.usecases.datc import DatcFormatError, parse_cases, run_case, run_file

from support import REPO, SHARED

DATC3 = REPO / "tests" / "datc" / "datc_v3_0.txt"
CASES = parse_cases(DATC3.read_text(encoding="utf-8"), str(DATC3))


def test_all_164_cases_are_transcribed():
    names = [c.name for c in CASES]
    assert len(names) == 164 == len(set(names))
    last_cases = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}
    for section, last in last_cases.items():
        assert f"6.{section}.{last}" in names


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_datc_3_0(case, board):
    ok, diff = run_case(case, board)
    assert ok, diff


@pytest.mark.skipif(not (SHARED / "datc" / "datc_v2.4_06.txt").exists(), reason="shared DATC 2.4 file not present")
def test_datc_2_4_file_passes_except_superseded_6G8():
    report = run_file(SHARED / "datc" / "datc_v2.4_06.txt")
    assert report.failed == 0, [line for line in report.lines if line.startswith("FAIL")]
    assert report.superseded == 1
    assert any(line.startswith("SUPERSEDED 6.G.8") for line in report.lines)


def test_a_wrong_expectation_fails(tmp_path, board):
    """The runner can fail: a case expecting the wrong outcome is reported."""
    f = tmp_path / "bad.txt"
    f.write_text("CASE wrong\nPRESTATE\nEngland: A lon\nORDERS\nEngland: A lon-wal\nPOSTSTATE_SAME\nEND\n")
    report = run_file(f)
    assert report.failed == 1
    assert report.passed == 0
    assert "FAIL wrong" in report.lines[0]
    assert "England A Wal" in report.lines[0]


def test_runner_reads_variations_in_the_format(tmp_path):
    """Lower-case nations, an army given a coast, adjustments without an owners section."""
    f = tmp_path / "cases.txt"
    f.write_text(
        "CASE army with coast\nPRESTATE\nfrance: A spa/nc\nORDERS\nfrance: A spa-por\nPOSTSTATE\nfrance: A por\nEND\n"
        "CASE default owners\nPRESTATE_SETPHASE Fall 1901, Adjustment\nPRESTATE\nRussia: A war\n"
        "ORDERS\nRussia: Build F stp/sc\nPOSTSTATE\nRussia: A war\nRussia: F stp/sc\nEND\n")
    report = run_file(f)
    assert (report.passed, report.failed) == (2, 0), report.lines


def test_a_line_is_read_in_each_case_s_phase(tmp_path):
    """The same order line is a move in a movement case and a retreat in a retreat case, and the
    same unit line is read alike in every case, however many cases repeat it."""
    move = ("CASE move {n}\nPRESTATE\nFrance: A pic\nORDERS\nFrance: A pic - bur\n"
            "POSTSTATE\nFrance: A bur\nEND\n")
    retreat = ("CASE retreat {n}\nPRESTATE_SETPHASE Fall 1901, Retreats\nPRESTATE\nGermany: A mun\n"
               "PRESTATE_RESULTS\nSUCCESS: Germany: A ruh - pic\nPRESTATE_DISLODGED\nFrance: A pic\n"
               "ORDERS\nFrance: A pic - bur\nPOSTSTATE\nGermany: A mun\nFrance: A bur\nEND\n")
    f = tmp_path / "cases.txt"
    f.write_text("".join((move if n % 2 else retreat).format(n=n) for n in range(6)))
    report = run_file(f)
    assert (report.passed, report.failed) == (6, 0), report.lines


@pytest.mark.parametrize("text,error", [
    ("PRESTATE\n", "cases.txt:1: 'PRESTATE' outside a CASE block"),
    ("England: A lon\n", "cases.txt:1: 'England: A lon' outside a CASE block"),
    ("# a comment\nCASE a\nEngland: A lon\nEND\n", "cases.txt:3: 'England: A lon' is not in a section"),
    ("CASE a\nPRESTATE\nEngland: A lon\nCASE b\n", "cases.txt:4: CASE inside case a (missing END)"),
    ("CASE a\nPOSTSTATE_SAME\nEngland: A lon\nEND\n", "cases.txt:3: 'England: A lon' is not in a section"),
    ("CASE a\nPRESTATE\nEngland: A lon  # here\n", "cases.txt: case a has no END"),
])
def test_format_errors_name_the_line(text, error):
    with pytest.raises(DatcFormatError) as e:
        parse_cases(text, "cases.txt")
    assert e.value.code == "bad-datc"
    assert e.value.message == error


def test_comments_and_blank_lines_are_skipped():
    (case,) = parse_cases("VARIANT_ALL Standard\n\nCASE a # first\nPRESTATE # units\n\tEngland: A lon # here\n"
                          "ORDERS\n  England: A lon H\nPOSTSTATE_SAME\nEND\n")
    assert case.name == "a"
    assert case.same
    assert case.sections == {"PRESTATE": [(5, "England: A lon")], "ORDERS": [(7, "England: A lon H")]}


#: what `dipgen datc` has no use for: the mail's, the network's, the YAML parser (the board is read
#: through its compiled copy), the archive commands' and the site's
_NOT_AT_START = ("smtplib", "ssl", "socket", "email", "yaml", "json", "subprocess", "difflib", "tempfile",
                 "datetime", "hashlib", "mkdocs", "jinja2", "dipgen.usecases.mailsend", "dipgen.usecases.newarchive",
                 "dipgen.usecases.sitepush", "dipgen.io.yamlfile")


@pytest.mark.parametrize("argv", [["datc", "cases.txt"], ["--help"]], ids=["datc", "help"])
def test_a_command_imports_only_what_it_runs(argv, tmp_path):
    """Every command's parser is built at each start, so a command's modules are imported when it
    runs: `dipgen datc` and `dipgen --help` start without the mail, the network or YAML. A process
    of its own, as a user starts it (a test's process has imported everything already)."""
    import subprocess
    import sys

    (tmp_path / "cases.txt").write_text("CASE a\nPRESTATE\nEngland: F Lon\nFrance: A Par\nORDERS\n"
                                        "England: F Lon - NTH\nFrance: A Par - Bur\nPOSTSTATE\n"
                                        "England: F NTH\nFrance: A Bur\nEND\n", encoding="utf-8")
    script = ("import sys\nfrom dipgen.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, cwd=tmp_path,
                         check=True)
    assert argv[0] != "datc" or out.stdout == "1 passed, 0 failed\n"
    loaded = set(out.stderr.split())
    assert "dipgen.cli" in loaded
    assert ("dipgen.engine.movement" in loaded) == (argv[0] == "datc")
    assert sorted(m for m in loaded if m.split(".")[0] in _NOT_AT_START or m in _NOT_AT_START) == []

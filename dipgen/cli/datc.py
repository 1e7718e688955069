"""`dipgen datc`: run test cases in the DATC text format (`dipgen.usecases.datc`)."""

from __future__ import annotations


from dipgen.cli.say import fail, refused


def add_parser(sub) -> None:
    p = sub.add_parser("datc", help="run DATC-format adjudication test files",
                       description="Run test cases in the DATC text format (as used by jDip and godip); one line "
                                   "per failing case, then 'N passed, M failed'. Exit status 1 if any case fails.")
    p.add_argument("files", nargs="+", help="DATC text files")
    p.add_argument("-v", "--verbose", action="store_true", help="list passing cases too")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.usecases.datc import DatcFormatError, Report, run_file

    report = Report()
    for f in args.files:
        try:
            run_file(f, report)
        except DatcFormatError as e:
            return refused(e)
        except OSError as e:
            return fail(str(e), code="unreadable")
    for line in report.lines:
        if args.verbose or not line.startswith("PASS"):
            print(line)
    tail = f", {report.superseded} skipped" if report.superseded else ""
    print(f"{report.passed} passed, {report.failed} failed{tail}")
    return 1 if report.failed else 0

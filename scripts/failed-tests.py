#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# failed-tests.py JUNIT.xml: prints the output of every failed test of a CTest JUnit report, at the
# end of a run, where parallel output cannot bury it. Exits 0 (it reports, the run's status is
# CTest's).
import sys
import xml.etree.ElementTree as ElementTree


def main(path):
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as error:
        print(f"failed-tests: cannot read {path}: {error}")
        return 0
    failed = [case for case in root.iter("testcase")
              if case.find("failure") is not None or case.find("error") is not None
              or case.get("status") in ("fail", "notrun")]
    for case in failed:
        name = case.get("name")
        print(f"\n===== {name}: output =====")
        out = case.find("system-out")
        print(out.text if out is not None and out.text else "(no output)")
        print(f"===== {name}: end =====")
    if failed:
        print(f"\n{len(failed)} failed: " + " ".join(case.get("name") for case in failed))
        print(f"Every test's output: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

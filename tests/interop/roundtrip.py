#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
"""Round trips through `converge export --for aso|ack` and `converge apply`:

1. export from a workspace of every kind and policy, apply the export to a new workspace, and
   export again: the same documents, byte for byte;
   the accounts that import creates are Ready False until connected;
2. apply the export to the workspace it came from: every object unchanged, and the workspace
   as `get -o yaml` shows it (generations, resource versions) the same.

usage: roundtrip.py CONVERGE WORKSPACE_MANIFEST
"""
import os
import subprocess
import sys
import tempfile


def run(converge, workspace, *args):
    return subprocess.run([converge, "--workspace", workspace, *args], capture_output=True,
                          text=True, check=False)


def main():
    converge, manifest = sys.argv[1:3]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        first = os.path.join(tmp, "first.converge")
        second = os.path.join(tmp, "second.converge")
        applied = run(converge, first, "apply", "-f", manifest)
        if applied.returncode != 0:
            print(applied.stderr)
            return 1
        for target in ("aso", "ack", "kcc"):
            exported = run(converge, first, "export", "--for", target)
            path = os.path.join(tmp, f"{target}.yaml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(exported.stdout)

            into_new = run(converge, second, "apply", "-f", path)
            if into_new.returncode != 0:
                failures.append(f"{target}: apply to a new workspace: {into_new.stderr}")
                continue
            # A new account has no credential: Ready False, saying to connect it (no request
            # is sent without one).
            account = {"aso": "storageaccount/devstore", "ack": "awsaccount/aws-eu-west-1",
                       "kcc": "gcpproject/converge-interop"}[target]
            ready = run(converge, second, "reconcile", account, "--wait=20s")
            if ready.returncode != 1 or "is not connected" not in ready.stderr:
                failures.append(f"{target}: {account} is not Ready False as unconnected: "
                                f"{ready.returncode} {ready.stderr}")
            again = run(converge, second, "export", "--for", target)
            if again.stdout != exported.stdout:
                failures.append(f"{target}: the export of the new workspace differs:\n"
                                f"--- first\n{exported.stdout}\n--- again\n{again.stdout}")
            else:
                count = sum(1 for line in exported.stdout.splitlines()
                            if line.startswith("apiVersion:"))
                print(f"{target}: {count} documents the same after "
                      "export, apply to a new workspace, export")

            before = run(converge, first, "get", "-o", "yaml").stdout
            onto_self = run(converge, first, "apply", "-f", path)
            # Warnings say what a person must do (give a secret's value): not changes.
            lines = [l for l in onto_self.stdout.splitlines() + onto_self.stderr.splitlines()
                     if l.strip() and not l.startswith("warning: ")]
            changed = [l for l in lines if not l.endswith(" unchanged")]
            if onto_self.returncode != 0 or changed or not lines:
                failures.append(f"{target}: applying the export to its own workspace changed "
                                f"something: {onto_self.returncode} {changed}")
            else:
                print(f"{target}: {len(lines)} objects unchanged when applied to their own "
                      "workspace")
            after = run(converge, first, "get", "-o", "yaml").stdout
            if before != after:
                failures.append(f"{target}: the workspace changed (generations, annotations)")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
"""Validates what `converge export --for aso|ack|kcc` writes against the CRDs of Azure Service
Operator, AWS Controllers for Kubernetes and Config Connector, strictly (unknown fields are errors, as kubectl's
default field validation makes them), and checks that `converge apply` refuses each invalid
ASO/ACK input with its documented message.

ACK_SAMPLES holds ACK manifests as a team keeps them (one per kind, no region): each must
validate against its CRD, apply under `--aws-account`, and export again as valid documents.

KCC_SAMPLES holds Config Connector's own samples (no project-id annotation): each must
validate, apply under `--gcp-project`, and export again as valid documents.

usage: validate_crds.py CONVERGE CRD_DIR WORKSPACE_MANIFEST INVALID_DIR [ACK_SAMPLES [KCC_SAMPLES]]

Exits 77 (CTest's SKIP_RETURN_CODE) when CRD_DIR is not there.
"""
import copy
import glob
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
    import yaml
except ImportError as e:  # pragma: no cover
    print(f"SKIPPED: {e.name} is missing (apt-get install python3-jsonschema python3-yaml)")
    sys.exit(77)

SKIP = 77


def draft4(schema):
    """An openAPIV3Schema as a strict Draft 4 JSON schema.

    nullable adds null to the type; x-kubernetes-int-or-string allows both; a schema that
    preserves unknown fields or embeds a resource accepts any object; where properties are
    listed and nothing else is said, other keys are refused.
    """
    if isinstance(schema, list):
        return [draft4(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    s = {k: draft4(v) if k not in ("enum", "required", "default", "example") else v
         for k, v in schema.items() if not k.startswith("x-kubernetes-")}
    if "properties" in schema:
        s["properties"] = {k: draft4(v) for k, v in schema["properties"].items()}
    for dropped in ("format", "x-kubernetes-validations"):
        s.pop(dropped, None)
    if schema.get("x-kubernetes-int-or-string"):
        s.pop("type", None)
        s["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    preserve = schema.get("x-kubernetes-preserve-unknown-fields") or \
        schema.get("x-kubernetes-embedded-resource")
    if "properties" in schema and "additionalProperties" not in schema and not preserve:
        s["additionalProperties"] = False
    if schema.get("nullable") and "type" in s:
        s["type"] = [s["type"], "null"]
    s.pop("nullable", None)
    return s


def load_crds(crd_dir):
    schemas = {}
    paths = glob.glob(os.path.join(crd_dir, "*.yaml")) + \
        glob.glob(os.path.join(crd_dir, "ack", "*.yaml")) + \
        glob.glob(os.path.join(crd_dir, "kcc", "*.yaml"))
    for path in sorted(paths):
        with open(path, encoding="utf-8") as f:
            crd = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        group = crd["spec"]["group"]
        kind = crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            schema = copy.deepcopy(version["schema"]["openAPIV3Schema"])
            # metadata is ObjectMeta, which the CRD leaves open; check the fields export writes.
            schema.setdefault("properties", {})["metadata"] = {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "maxLength": 253,
                             "pattern": "^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$"},
                    "namespace": {"type": "string",
                                  "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "annotations": {"type": "object",
                                    "additionalProperties": {"type": "string"}},
                },
                "required": ["name"],
            }
            schemas[(f"{group}/{version['name']}", kind)] = schema
    return schemas


def run(converge, workspace, *args, stdin=None):
    return subprocess.run([converge, "--workspace", workspace, *args], input=stdin,
                          capture_output=True, text=True, check=False)


def samples_round(converge, ws, folder, target, flags, label, failures):
    """The samples in `folder` (as a team keeps them) applied to `ws` with `flags`, and exported
    again for `target`: (the samples read, those exported again, apply's result)."""
    samples = []
    for path in sorted(glob.glob(os.path.join(folder, "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            samples += [d for d in yaml.safe_load_all(f) if d]
    applied = run(converge, ws, "apply", *flags, "-f", folder)
    if applied.returncode != 0:
        failures.append(f"{label} samples: apply exited {applied.returncode}: {applied.stderr}")
    names = [d["metadata"]["name"] for d in samples]
    out = run(converge, ws, "export", "--for", target)
    again = [d for d in yaml.safe_load_all(out.stdout or "") if d and
             d.get("metadata", {}).get("name") in names]
    if len(again) != len(samples):
        failures.append(f"{label} samples: {len(again)} of {len(samples)} exported again: "
                        f"{out.stderr}")
    return samples, again, applied


def main():
    converge, crd_dir, manifest, invalid_dir = sys.argv[1:5]
    samples_dir = sys.argv[5] if len(sys.argv) > 5 else None
    kcc_dir = sys.argv[6] if len(sys.argv) > 6 else None
    if not os.path.isdir(crd_dir):
        print(f"SKIPPED: no CRDs at {crd_dir} (the validation needs ../shared/crds beside the "
              "source folder)")
        return SKIP
    schemas = load_crds(crd_dir)
    failures = []
    validated = 0
    with tempfile.TemporaryDirectory() as tmp:
        ws = os.path.join(tmp, "interop.converge")
        applied = run(converge, ws, "apply", "-f", manifest)
        if applied.returncode != 0:
            print(applied.stderr)
            return 1
        documents = []
        for target in ("aso", "ack", "kcc"):
            out = run(converge, ws, "export", "--for", target, "--namespace", "team")
            # Blobs have no counterpart: named on stderr, exit 1, the rest written.
            if out.returncode not in (0, 1) or not out.stdout:
                failures.append(f"export --for {target} exited {out.returncode}: {out.stderr}")
                continue
            documents += [d for d in yaml.safe_load_all(out.stdout) if d]
        samples = []
        if samples_dir:
            # As a team keeps them: no region, so under the account --aws-account names.
            sample_ws = os.path.join(tmp, "samples.converge")
            run(converge, sample_ws, "apply", "-f", manifest)
            read, again, applied = samples_round(converge, sample_ws, samples_dir, "ack",
                                                 ["--aws-account", "local"], "ACK", failures)
            if applied.returncode == 0 and \
                    "store the value in the OS keychain" not in applied.stderr:
                failures.append("ACK samples: apply did not say how to give the secret's value: "
                                f"{applied.stderr}")
            samples += read
            documents += read + again
        if kcc_dir:
            # As KCC's samples are kept: no project annotation, so under --gcp-project.
            read, again, _ = samples_round(converge, os.path.join(tmp, "kcc.converge"), kcc_dir,
                                           "kcc", ["--gcp-project", "team-gcp"], "KCC", failures)
            samples += read
            documents += read + again
        for doc in documents:
            key = (doc.get("apiVersion"), doc.get("kind"))
            name = f"{key[1]}/{doc.get('metadata', {}).get('name')} ({key[0]})"
            if key[0].endswith("storage"):
                failures.append(f"{name}: a storage (hub) version is never written")
            schema = schemas.get(key)
            if schema is None:
                failures.append(f"{name}: no CRD serves this kind and version")
                continue
            errors = sorted(jsonschema.Draft4Validator(draft4(schema)).iter_errors(doc),
                            key=lambda e: list(e.absolute_path))
            for e in errors:
                path = ".".join(str(p) for p in e.absolute_path)
                failures.append(f"{name}: {path}: {e.message}")
            validated += 1
        kinds = sorted({d["kind"] for d in documents})
        print(f"{validated} documents validated against their CRDs ({len(schemas)} CRD "
              f"versions loaded), {len(samples)} of them ACK and KCC samples and as many exported "
              f"from them again: {', '.join(kinds)}")

        refused = 0
        before = run(converge, ws, "get", "-o", "yaml").stdout
        cases = sorted(glob.glob(os.path.join(invalid_dir, "*.yaml")))
        for case in cases:
            with open(case, encoding="utf-8") as f:
                first = f.readline()
            expected = first.partition("# expect:")[2].strip()
            bad = run(converge, ws, "apply", "-f", case)
            base = os.path.basename(case)
            if bad.returncode != 2 or expected not in bad.stderr:
                failures.append(f"{base}: expected exit 2 and \"{expected}\", got "
                                f"{bad.returncode}: {bad.stderr.strip()}")
            else:
                refused += 1
        if cases:
            print(f"{refused} of {len(cases)} invalid inputs refused with their message")
        if run(converge, ws, "get", "-o", "yaml").stdout != before:
            failures.append("a refused input changed the workspace")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

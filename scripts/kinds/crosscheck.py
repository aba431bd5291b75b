#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
"""Checks the declared AWS kinds against CloudFormation's resource schemas.

    scripts/kinds/crosscheck.py [--verbose] [--schemas DIR] [SERVICE ...]

botocore's models do not say which fields cannot change after creation, or how a resource is
known: the correction files say it (docs/kinds.md). CloudFormation's resource schemas, which
cfn-lint ships, say it too: a second source. For each kind of resources/kinds/aws/generated/
SERVICE.json, with the CloudFormation type its correction file names (`cloudformation: {type}`),
this compares

  - createOnlyProperties with the kind's `immutable` fields;
  - readOnlyProperties with the kind's spec fields (which are all written);
  - primaryIdentifier with the kind's identity (its name field, the fields it is found by, or
    the backend ID).

A spec field stands for the property of its own name or its API member's name, case aside, or the
one `cloudformation.properties` names. A difference that is meant is recorded, with its reason,
in `cloudformation.differences` (keyed by the spec field, or `primaryIdentifier`); any other
fails, as does a recorded difference that no longer occurs. Properties the kind does not have
are no difference: --verbose lists them.

cfn-lint is found by importing it, in this Python or another one (pyenv's, beside moto), or under
--schemas (its `data/schemas` folder). Exit codes: 0 agreed, 1 differences, 2 bad input, 3
cfn-lint's schemas not found.
"""

import argparse
import glob
import json
import os
import re
import sys

from findpackage import find_package

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
CORRECTIONS = os.path.join(ROOT, 'resources', 'kinds', 'aws', 'corrections')
GENERATED = os.path.join(ROOT, 'resources', 'kinds', 'aws', 'generated')
REGION = 'us_east_1'  # the region whose schemas are read: it has every type first
IDENTITY = 'primaryIdentifier'  # the differences' key for the identity


class Bad(Exception):
    pass


def load_yaml(path):
    try:
        import yaml
    except ImportError:
        raise Bad('PyYAML is needed to read the correction files (python3-yaml)')
    with open(path, encoding='utf-8') as f:
        return yaml.safe_load(f)


def cfnlint_schemas(explicit):
    """cfn-lint's data/schemas folder: --schemas, or cfn-lint's in any Python (findpackage.py)."""
    if explicit:
        return explicit
    folder = find_package('cfnlint')
    schemas = os.path.join(folder, 'data', 'schemas') if folder else None
    return schemas if schemas and os.path.isdir(schemas) else None


class Schemas:
    """CloudFormation's resource schemas as cfn-lint ships them, by type name.

    cfn-lint 1.4x and later keep each schema once, as resources/HASH.json, and a module per region
    (providers/us_east_1.py) that maps type names to hashes; earlier 1.x releases kept a folder of
    schemas per region (providers/us_east_1/aws-sqs-queue.json)."""

    def __init__(self, folder):
        self.folder = folder
        self.files = {}
        index = os.path.join(folder, 'providers', REGION + '.py')
        per_region = os.path.join(folder, 'providers', REGION)
        if os.path.isfile(index):
            with open(index, encoding='utf-8') as f:
                for type_name, digest in re.findall(r'"(\w+::\w+::\w+)":\s*"(\w+)"', f.read()):
                    self.files[type_name] = os.path.join(folder, 'resources', digest + '.json')
        elif os.path.isdir(per_region):
            for path in glob.glob(os.path.join(per_region, '*.json')):
                # aws-sqs-queue.json: the type's name, lower-cased, in dashes.
                self.files[os.path.basename(path)[:-5]] = path

    def __bool__(self):
        return bool(self.files)

    def get(self, type_name):
        path = self.files.get(type_name) or self.files.get(type_name.lower().replace('::', '-'))
        if not path or not os.path.exists(path):
            return None
        with open(path, encoding='utf-8') as f:
            return json.load(f)


def top(pointer):
    """'/properties/A/B' → ('A', 'A/B'); only a schema's own properties are compared."""
    parts = pointer.split('/')
    if len(parts) < 3 or parts[1] != 'properties':
        return None, None
    return parts[2], '/'.join(parts[2:])


def pointers(schema, key):
    """The top-level properties a schema lists under key, each with the paths listed in it."""
    out = {}
    for pointer in schema.get(key, []):
        prop, path = top(pointer)
        if prop:
            out.setdefault(prop, set()).add(path)
    return out


class Comparison:
    """One kind's declaration against its CloudFormation schema: what differs, in words."""

    def __init__(self, source, declared, cfn, schema, note):
        self.name = declared['kind']
        self.where = f'corrections/{source}'
        self.declared = declared
        self.cfn = cfn
        self.type_name = cfn['type']
        self.schema = schema
        self.props = schema.get('properties', {})
        self.fields = {f['name']: f for f in declared['fields']}
        self.note = note
        self.errors = []  # what is wrong in the correction file itself
        self.found = {}  # difference key → what differs
        self.agreed = []  # what agrees, for --verbose
        self.map_fields()

    def map_fields(self):
        """The property each spec field stands for: cloudformation.properties names it, or the
        property of the field's name or its API member's name, case aside."""
        explicit = self.cfn.get('properties') or {}
        for field, prop in explicit.items():
            if field not in self.fields:
                self.errors.append(f'{self.name}: {self.where} maps cloudformation.properties.'
                                   f'{field}, but the kind has no such spec field')
            elif prop is not None and prop not in self.props:
                self.errors.append(f'{self.name}.{field}: {self.where} maps it to '
                                   f'{self.type_name} {prop}, which the schema does not have')
        by_lower = {p.lower(): p for p in self.props}
        self.prop_of = {}
        for field, f in self.fields.items():
            if field in explicit:
                prop = explicit[field] if explicit[field] in self.props else None
            else:
                prop = by_lower.get(field.lower()) or by_lower.get(f.get('member', '').lower())
            if prop:
                self.prop_of[field] = prop
        self.field_of = {}
        for field, prop in self.prop_of.items():
            if prop in self.field_of:
                self.errors.append(f'{self.name}: the spec fields {self.field_of[prop]} and '
                                   f'{field} both stand for {self.type_name} {prop}; say which '
                                   'in cloudformation.properties')
            self.field_of[prop] = field

    def create_only(self):
        """createOnlyProperties against the `immutable` fields."""
        create_only = pointers(self.schema, 'createOnlyProperties')
        conditional = pointers(self.schema, 'conditionalCreateOnlyProperties')
        prop_name = f'{self.type_name} '
        for field, prop in self.prop_of.items():
            immutable = bool(self.fields[field].get('immutable'))
            paths = create_only.get(prop, set())
            whole = prop in paths
            parts = ', '.join(sorted(paths))
            if whole and not immutable:
                self.found[field] = (f'CloudFormation says {prop_name}{prop} is create-only; '
                                     'the declaration says the field can change (not in '
                                     '`immutable`)')
            elif paths and not whole and not immutable:
                self.found[field] = (f'CloudFormation says part of {prop_name}{prop} is '
                                     f'create-only ({parts}); the declaration says the field can '
                                     'change (not in `immutable`)')
            elif paths and not whole:
                self.found[field] = (f'CloudFormation says only part of {prop_name}{prop} is '
                                     f'create-only ({parts}); the declaration says the whole '
                                     'field cannot change (in `immutable`)')
            elif prop in conditional:
                self.note(f'{field}: {prop} is create-only in some cases; the declaration says '
                          + ('it cannot change' if immutable else 'it can change'))
            elif immutable and not paths:
                self.found[field] = (f'CloudFormation says {prop_name}{prop} can change (not '
                                     'create-only); the declaration says it cannot (in '
                                     '`immutable`)')
            elif whole:
                self.agreed.append(field)
        if self.agreed:
            self.note('create-only in CloudFormation, immutable here: '
                      + ', '.join(sorted(self.agreed)))

    def read_only(self):
        """readOnlyProperties are answered, never written: no spec field may stand for one."""
        for prop in pointers(self.schema, 'readOnlyProperties'):
            if prop in self.field_of:
                self.found[self.field_of[prop]] = (
                    f'CloudFormation says {self.type_name} {prop} is read-only; the declaration '
                    'makes it a spec field, which is written')

    def identity(self):
        """primaryIdentifier against what the kind is known by: its name field, the spec fields
        its locate, read or delete call sends, or its backend ID."""
        d = self.declared
        name_field, name_member = d.get('nameField', ''), d.get('nameMember', '')
        locate = d.get('locate', {})
        by_spec = set(locate.get('matchFields', {}).values())
        for call in (locate, d.get('read', {}), d.get('delete', {})):
            for value in (call.get('input') or {}).values():
                if isinstance(value, str) and value.startswith('$spec.'):
                    by_spec.add(value[len('$spec.'):])
        id_member = (d.get('idMember') or locate.get('result') or
                     d.get('create', {}).get('result') or '')
        # CloudFormation's name for the backend ID, where it is not the API's.
        self.id_prop = self.cfn.get('id', id_member)
        if 'id' in self.cfn and self.cfn['id'] not in self.props:
            self.errors.append(f'{self.name}: {self.where} says cloudformation.id is '
                               f'{self.type_name} {self.cfn["id"]}, which the schema does not '
                               'have')
        known_by = []
        if name_field:
            known_by.append(f'its name field {name_field}')
        elif name_member:
            known_by.append(f'its name (metadata.name, {name_member})')
        known_by += [f'its field {f}' for f in sorted(by_spec)]
        if id_member:
            known_by.append(f'its ID {id_member}' + (
                f" (CloudFormation's {self.id_prop})" if self.id_prop != id_member else ''))
        known_by = ', '.join(known_by) or 'nothing'
        primary, unmatched = [], []
        for pointer in self.schema.get('primaryIdentifier', []):
            prop, _ = top(pointer)
            field = self.field_of.get(prop)
            if field is not None:
                agrees = field == name_field or field in by_spec
            else:
                agrees = prop is not None and prop.lower() in (
                    self.id_prop.lower(), '' if name_field else name_member.lower())
            primary.append(str(prop))
            if not agrees:
                unmatched.append(f'{prop}' + (f' (spec field {field})' if field else ''))
        if unmatched:
            self.found[IDENTITY] = (f'CloudFormation knows {self.type_name} by '
                                    f'{", ".join(unmatched)}; the declaration knows the kind by '
                                    + known_by)
        else:
            self.note(f'known by {", ".join(primary)} in CloudFormation and by {known_by} in the '
                      'declaration')

    def only_one_side(self):
        """What one side has and the other has not: no difference, shown with --verbose."""
        marks = {what: pointers(self.schema, key) for what, key in (
            ('read-only', 'readOnlyProperties'), ('create-only', 'createOnlyProperties'),
            ('write-only', 'writeOnlyProperties'))}
        for prop in sorted(set(self.props) - set(self.field_of) - {self.id_prop}):
            tags = [what for what, props in marks.items() if prop in props]
            self.note(f'CloudFormation has {prop}' + (f' ({", ".join(tags)})' if tags else '')
                      + ', the kind does not')
        for field in sorted(set(self.fields) - set(self.prop_of)):
            self.note(f'{field}: CloudFormation has no property for it')
        for prop in marks['write-only']:
            if prop in self.field_of:
                f = self.fields[self.field_of[prop]]
                how = ('reads it by reference' if f.get('type') == 'secretRef' else
                       'compares it' if f.get('compared', True) else 'does not compare it')
                self.note(f'{self.field_of[prop]}: {prop} is write-only (no read answers it); '
                          'the declaration ' + how)

    def failures(self):
        """The differences not recorded, and the recorded ones that no longer occur."""
        out = list(self.errors)
        recorded = self.cfn.get('differences') or {}
        for key, text in self.found.items():
            if key in recorded:
                self.note(f'{key}: {text}. Recorded: {recorded[key]}')
                continue
            label = self.name if key == IDENTITY else f'{self.name}.{key}'
            hint = (' (if CloudFormation only names the same ID otherwise, say which of its '
                    'properties it is as cloudformation.id)' if key == IDENTITY else '')
            out.append(f'{label}: {text}. If the declaration is wrong, correct {self.where}'
                       f'{hint}; if the difference is meant, record why as '
                       f'cloudformation.differences.{key}')
        for key, reason in recorded.items():
            if key not in self.found:
                out.append(f'{self.name}: {self.where} records a difference in {key}, but '
                           'CloudFormation and the declaration agree on it; remove '
                           f'cloudformation.differences.{key}')
            elif not isinstance(reason, str) or not reason.strip():
                out.append(f'{self.name}: cloudformation.differences.{key} gives no reason')
        return out


class Check:
    def __init__(self, schemas, verbose):
        self.schemas = schemas
        self.verbose = verbose
        self.failures = []

    def note(self, text):
        if self.verbose:
            print('  ' + text)

    def kind(self, source, declared, c):
        name = declared['kind']
        cfn = c.get('cloudformation')
        if not isinstance(cfn, dict) or not cfn.get('type'):
            self.failures.append(f'{name}: corrections/{source} names no CloudFormation type; '
                                 'add `cloudformation: {type: AWS::SERVICE::RESOURCE}` to the '
                                 'kind')
            return
        schema = self.schemas.get(cfn['type'])
        if schema is None:
            self.failures.append(f'{name}: corrections/{source} names {cfn["type"]}, which '
                                 "cfn-lint has no schema of")
            return
        if self.verbose:
            print(f'{name} ({cfn["type"]})')
        comparison = Comparison(source, declared, cfn, schema, self.note)
        comparison.create_only()
        comparison.read_only()
        comparison.identity()
        self.failures += comparison.failures()
        if self.verbose:
            comparison.only_one_side()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--verbose', '-v', action='store_true',
                        help='say what agrees and what only one side has')
    parser.add_argument('--schemas', help="cfn-lint's data/schemas folder")
    parser.add_argument('services', nargs='*')
    args = parser.parse_args()
    folder = cfnlint_schemas(args.schemas)
    schemas = Schemas(folder) if folder else None
    if not schemas:
        print("skipped: cfn-lint's resource schemas not found (pip install cfn-lint)",
              file=sys.stderr)
        return 3
    check = Check(schemas, args.verbose)
    services = args.services or sorted(
        f[:-5] for f in os.listdir(CORRECTIONS) if f.endswith('.yaml'))
    try:
        for service in services:
            corrections = load_yaml(os.path.join(CORRECTIONS, service + '.yaml'))
            path = os.path.join(GENERATED, service + '.json')
            if not os.path.exists(path):
                raise Bad(f'{service}: no generated/{service}.json; run scripts/kinds/generate.py')
            with open(path, encoding='utf-8') as f:
                declared = {k['kind']: k for k in json.load(f)['kinds']}
            for name, c in corrections['kinds'].items():
                if name not in declared:
                    raise Bad(f'{name}: not in generated/{service}.json; run '
                              'scripts/kinds/generate.py')
                check.kind(service + '.yaml', declared[name], c)
    except (Bad, OSError, KeyError) as e:
        print(f'crosscheck.py: {e}', file=sys.stderr)
        return 2
    for text in check.failures:
        print(text, file=sys.stderr)
    if check.failures:
        print(f'crosscheck.py: {len(check.failures)} difference(s) from CloudFormation\'s '
              'resource schemas (docs/kinds.md, "A second source")', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

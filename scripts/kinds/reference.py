#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
"""Writes docs/kinds-reference.md, the manifest reference of the declared kinds (AWS, Google Cloud).

    scripts/kinds/reference.py [--check]

Reads the declarations in resources/kinds/{aws,gcp}/generated/*.json (what scripts/kinds/generate.py
writes) and writes, per service, per kind: its description, its ACK counterpart and a table of
its spec fields (type, required/immutable, the first sentences of the description, enum values
and constraints). The reference is made from the same files the program reads, so it cannot
describe other kinds than the program has. --check writes nothing and exits 1 when the checked-in
reference differs (the test kinds.reference runs it). Exit codes: 0 done, 1 difference (--check),
2 bad input. Python 3 and its standard library only.
"""

import argparse
import glob
import json
import os
import re
import sys
import textwrap

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
# Each provider's declarations: its folder, its kinds' apiVersion and owner, its title.
PROVIDERS = [
    (os.path.join(ROOT, 'resources', 'kinds', 'aws', 'generated'), 'aws.converge.dev/v1',
     'AwsAccount', 'AWS'),
    (os.path.join(ROOT, 'resources', 'kinds', 'gcp', 'generated'), 'gcp.converge.dev/v1',
     'GcpProject', 'Google Cloud'),
]
TARGET = os.path.join(ROOT, 'docs', 'kinds-reference.md')
SUMMARY_LIMIT = 160  # a first sentence shorter than this is followed by the second
WIDTH = 100
# Declarations generated but not read by the program yet (core/providers/declared/CMakeLists.txt
# leaves the same files out): none today.
NOT_SERVED = set()

# A sentence ends at '. ' before a capital, a digit, a quote or '('; not after "e.g" or "i.e".
SENTENCE_END = re.compile(r'(?<!e\.g)(?<!i\.e)\.\s+(?=[A-Z0-9`"(])')


class Bad(Exception):
    pass


def sentences(text, limit=SUMMARY_LIMIT):
    """The first sentence of `text`, and the second when the first is short."""
    text = ' '.join(text.split())
    parts = SENTENCE_END.split(text)
    out = parts[0].rstrip('.') + '.' if parts[0] else ''
    if len(parts) > 1 and len(out) < limit:
        second = parts[1].rstrip('.')
        if second:
            out += ' ' + second + '.'
    return out


def type_name(field):
    kind = field['type']
    if kind == 'list':
        return '[]' + type_name(field['items'])
    if kind == 'map':
        return 'map[string]' + type_name(field.get('values', {'type': 'string'}))
    if kind == 'secretRef':
        return 'object (by reference)'
    return kind


def code(text):
    return '`' + str(text).replace('|', '\\|') + '`'


def checks(field, of=''):
    """The field's own constraints, as explain prints them; `of` names what they apply to."""
    out = []
    if field.get('enum'):
        out.append(of + 'one of ' + ', '.join(code(v) for v in field['enum']))
    low, high = field.get('minLength'), field.get('maxLength')
    if low is not None and high is not None:
        out.append(f'{of}length {low}..{high}')
    elif low is not None:
        out.append(f'{of}length at least {low}')
    elif high is not None:
        out.append(f'{of}length at most {high}')
    if field.get('pattern'):
        out.append(of + 'pattern ' + code(field['pattern']))
    low, high = field.get('minimum'), field.get('maximum')
    if low is not None and high is not None:
        out.append(f'{of}range {low}..{high}')
    elif low is not None:
        out.append(f'{of}minimum {low}')
    elif high is not None:
        out.append(f'{of}maximum {high}')
    if field.get('maxItems') is not None:
        out.append(f'at most {field["maxItems"]} items')
    if field.get('default') is not None:
        out.append(of + 'default ' + code(json.dumps(field['default'])
                                         if not isinstance(field['default'], str)
                                         else field['default']))
    return out


def constraints(field):
    is_map = field['type'] == 'map'
    out = checks(field, 'key ' if is_map else '')
    item = field.get('values') if is_map else field.get('items')
    if item and item['type'] != 'object':
        out += checks(item, 'value ' if is_map else 'item ')
    return out


def cell(text):
    return text.replace('|', '\\|')


def rows(field, prefix=''):
    """Table rows of `field` and of the fields under it (a list's items' through its name)."""
    path = prefix + field['name']
    flags = [flag for flag in ('required', 'immutable') if field.get(flag)]
    description = cell(sentences(field.get('doc', '')))
    if field.get('type') == 'secretRef':
        # As core/providers/declared/declarationreader.cpp says it.
        description += (' ' if description else '') + (
            'Given only by reference: `{env: VARIABLE}`, `{keychain: ENTRY}` or `{file: PATH}` '
            '(mode 0600); the value never reaches the workspace, events or logs.')
    rules = constraints(field)
    if rules:
        description += (' ' if description else '') + rules[0][0].upper() + rules[0][1:]
        description += ''.join('; ' + rule for rule in rules[1:]) + '.'
    out = [f'| {code(path)} | {cell(type_name(field))} | {", ".join(flags)} | {description} |']
    holder = field
    while holder.get('type') in ('list', 'map'):
        holder = holder.get('items' if holder['type'] == 'list' else 'values', {})
    if holder.get('type') == 'object':
        for child in holder.get('fields', []):
            out += rows(child, path + '.')
    return out


def owner_field(owner_kind):
    # What core/providers/declared/declarationreader.cpp adds to every declared kind's spec.
    return {'name': 'owner', 'type': 'object', 'required': True, 'immutable': True,
            'doc': f'The {owner_kind} the resource lives in.',
            'fields': [{'name': 'name', 'type': 'string', 'required': True, 'minLength': 1,
                        'maxLength': 253, 'doc': f"The {owner_kind}'s name."}]}


def paragraph(text):
    return textwrap.fill(' '.join(text.split()), WIDTH, break_long_words=False,
                         break_on_hyphens=False)


def kind_section(kind, api_version, owner_kind):
    lines = [f'### {kind["kind"]}', '']
    if kind.get('description'):
        lines += [paragraph(kind['description']), '']
    article = 'an' if owner_kind[0] in 'AEIOU' else 'a'
    facts = [f'`apiVersion: {api_version}`, `kind: {kind["kind"]}`, owned by {article} '
             f'{owner_kind} (`spec.owner.name`).']
    if kind.get('nameField'):
        facts.append(f'Its backend name is `spec.{kind["nameField"]}`, else `metadata.name`.')
    ack = kind.get('ack') or {}
    if ack.get('apiVersion') and ack.get('kind'):
        facts.append(f'AWS Controllers for Kubernetes: `apiVersion: {ack["apiVersion"]}`, '
                     f'`kind: {ack["kind"]}`.')
    lines += [paragraph(' '.join(facts)), '']
    lines += ['| field | type | required/immutable | description |', '| --- | --- | --- | --- |']
    for field in [owner_field(owner_kind)] + with_references(kind):
        lines += rows(field)
    return lines + ['']


def with_references(kind):
    """The kind's fields with each reference beside the ID field it stands in for, as
    core/providers/declared/declarationreader.cpp makes them: where the ID field is required, one
    of the two is."""
    fields = [dict(f) for f in kind.get('fields', [])]
    for reference in kind.get('references', []):
        at = next(i for i, f in enumerate(fields) if f['name'] == reference['idField'])
        id_field = fields[at]
        either = bool(id_field.pop('required', False))
        ref = {'name': reference['field'], 'type': 'object',
               'doc': ('One of the two is required. ' if either else '') +
                      f"The {reference['kind']} of this workspace whose "
                      f"{reference.get('from') or 'ID'} is sent as "
                      f"{reference['idField']}, once it is Ready; or give "
                      f"{reference['idField']} itself.",
               'fields': [{'name': 'name', 'type': 'string', 'required': True, 'minLength': 1,
                           'maxLength': 253, 'doc': f"The {reference['kind']}'s metadata.name."}]}
        if id_field.get('immutable'):
            ref['immutable'] = True
        fields.insert(at + 1, ref)
    return fields


def read_services():
    services = []
    for folder, api_version, owner_kind, provider in PROVIDERS:
        for path in sorted(glob.glob(os.path.join(folder, '*.json'))):
            if os.path.basename(path) in NOT_SERVED:
                continue
            try:
                with open(path, encoding='utf-8') as f:
                    declared = json.load(f)
                title = declared['service']['title']
                if provider != 'AWS':
                    title = f'{provider} {title}'
                services.append((title, declared['kinds'], api_version, owner_kind))
            except (OSError, ValueError, KeyError, TypeError) as e:
                raise Bad(f'{os.path.relpath(path, ROOT)}: {e!r}')
    if not services:
        raise Bad('no declarations in resources/kinds')
    return sorted(services, key=lambda s: s[0].lower())


def reference():
    services = read_services()
    lines = [
        '# Declared kinds: the manifest reference',
        '',
        '<!-- Written by scripts/kinds/reference.py from resources/kinds/*/generated/*.json; '
        'do not edit. -->',
        '',
        paragraph('The kinds declared as data (resources/kinds/*/generated/, made by '
                  'scripts/kinds/generate.py from botocore\'s models for AWS and from the Google '
                  'Cloud CLI\'s for Google Cloud), field by field: every '
                  'field of `spec`, its type, whether it is required or cannot change after '
                  'creation (immutable), the first sentences of its documentation and its rules. '
                  'A list\'s item fields are named through the list (`tags.key`). '
                  '`converge explain KIND[.FIELD]` prints the same at the terminal. The '
                  'hand-written kinds (Azure Storage, AwsAccount, DynamoDBTable, S3Object, '
                  'GcpProject) are in docs/manifests.md.'),
        '',
    ]
    for title, kinds, _, _ in services:
        names = ', '.join(f'[{k["kind"]}](#{k["kind"].lower()})' for k in kinds)
        lines.append(f'- {title}: {names}')
    lines.append('')
    for title, kinds, api_version, owner_kind in services:
        lines += [f'## {title}', '']
        for kind in kinds:
            lines += kind_section(kind, api_version, owner_kind)
    return '\n'.join(lines).rstrip('\n') + '\n'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true',
                        help='write nothing; exit 1 when the reference is not up to date')
    args = parser.parse_args()
    try:
        text = reference()
    except Bad as e:
        print(f'reference.py: {e}', file=sys.stderr)
        return 2
    old = None
    if os.path.exists(TARGET):
        with open(TARGET, encoding='utf-8') as f:
            old = f.read()
    relative = os.path.relpath(TARGET, ROOT)
    if args.check:
        if old != text:
            print(f'reference.py: {relative} differs from what the declarations give; run '
                  'scripts/kinds/reference.py and commit the result', file=sys.stderr)
            return 1
        return 0
    if old != text:
        with open(TARGET, 'w', encoding='utf-8') as f:
            f.write(text)
        print(f'wrote {relative}')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
"""Writes the declarations of Converge's declared kinds from the clouds' own API models.

    scripts/kinds/generate.py [--check] [--source botocore|google] [--data DIR] [--sdk DIR]
                              [SERVICE ...]
    scripts/kinds/generate.py --operations OP[,OP...] [--data DIR] SERVICE

The second form prints the REST part alone ({"operations", "shapes"}) for the operations named,
as a declaration would carry it: the protocol tests' fixtures of a service whose kind is not
declared yet (tests/data/rest/, which --check checks too).

For each hand-written correction file resources/kinds/aws/corrections/SERVICE.yaml (what ACK's
generator.yaml is to its code generator: which operations make a kind, the names ACK gives its
fields, what the model does not say), reads botocore's SERVICE/VERSION/service-2.json and
paginators-1.json and writes resources/kinds/aws/generated/SERVICE.json, the declaration core reads
at start (docs/kinds.md describes both formats). The output is checked in: neither the build nor a
user needs botocore. --check writes nothing and exits 1 when a checked-in declaration differs from
what the models give (the test kinds.generated runs it).

Google Cloud's kinds come the same way from resources/kinds/gcp/corrections/SERVICE.yaml and
Google's models as the Google Cloud CLI ships them (googlemodel.py), into
resources/kinds/gcp/generated/SERVICE.json.

botocore is found by importing it, or under --data (its `data` folder); the Google Cloud CLI on
PATH or under --sdk. A source that is missing skips its services and says so. Exit codes: 0 done,
1 difference (--check), 2 bad input, 3 neither source found.
"""

import argparse
import gzip
import html
import json
import os
import re
import sys

from findpackage import find_package
import googlemodel

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
CORRECTIONS = os.path.join(ROOT, 'resources', 'kinds', 'aws', 'corrections')
GENERATED = os.path.join(ROOT, 'resources', 'kinds', 'aws', 'generated')
GCP_CORRECTIONS = os.path.join(ROOT, 'resources', 'kinds', 'gcp', 'corrections')
GCP_GENERATED = os.path.join(ROOT, 'resources', 'kinds', 'gcp', 'generated')
DOC_LIMIT = 400  # characters of documentation a field keeps: the first sentences


class Bad(Exception):
    pass


def load_yaml(path):
    try:
        import yaml
    except ImportError:
        raise Bad('PyYAML is needed to read the correction files (python3-yaml)')
    with open(path, encoding='utf-8') as f:
        return yaml.safe_load(f)


def botocore_data(explicit):
    """botocore's data folder: --data, or botocore's in any Python (findpackage.py)."""
    if explicit:
        return explicit
    folder = find_package('botocore')
    return os.path.join(folder, 'data') if folder else None


def read_json(path):
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            return json.load(f)
    with gzip.open(path + '.gz', 'rt', encoding='utf-8') as f:
        return json.load(f)


def model(data, service):
    folder = os.path.join(data, service)
    if not os.path.isdir(folder):
        raise Bad(f'botocore has no service {service}')
    version = sorted(os.listdir(folder))[-1]
    shapes = read_json(os.path.join(folder, version, 'service-2.json'))
    try:
        pages = read_json(os.path.join(folder, version, 'paginators-1.json'))['pagination']
    except FileNotFoundError:
        pages = {}
    return shapes, pages


def plain(doc):
    """The model's HTML documentation as plain text, cut after whole sentences."""
    text = re.sub(r'<[^>]+>', ' ', doc or '')
    text = html.unescape(re.sub(r'\s+', ' ', text)).strip()
    text = re.sub(r' ([.,;:)])', r'\1', text)
    # Pointers to pages that are not here help nobody in a tooltip.
    text = re.sub(r'\s*For more information(,| about| on)[^.]*\.', '', text).strip()
    if len(text) <= DOC_LIMIT:
        return text
    cut = text[:DOC_LIMIT]
    end = max(cut.rfind('. '), cut.rfind('.)'))
    return cut[:end + 1] if end > 80 else cut.rstrip() + '…'


class Service:
    def __init__(self, name, api_model, pages):
        self.name = name
        self.model, self.pages = api_model, pages
        self.shapes = self.model['shapes']
        self.meta = self.model['metadata']
        self.nested_omit = set()
        self.used_operations = []

    def operation(self, name):
        ops = self.model['operations']
        if name not in ops:
            raise Bad(f'{self.name} has no operation {name}')
        return ops[name]

    def input_members(self, operation):
        op = self.operation(operation)
        if 'input' not in op:
            return {}, []
        shape = self.shapes[op['input']['shape']]
        return shape['members'], shape.get('required', [])

    def output_shape(self, operation, path):
        """The shape at the dotted member path of the operation's output ('' is the output)."""
        op = self.operation(operation)
        shape = self.shapes[op['output']['shape']]
        for part in [p for p in path.split('.') if p]:
            shape = self.shapes[shape['members'][part]['shape']]
        if shape['type'] == 'list':
            shape = self.shapes[shape['member']['shape']]
        return shape

    def field(self, name, member, ref, doc, renames, depth=0):
        """One field of the declaration from a member of a structure."""
        shape = self.shapes[ref['shape']]
        out = {'name': name, 'member': member}
        kind = shape['type']
        if 'enum' in shape:
            out['type'] = 'enum'
            out['enum'] = shape['enum']
        elif kind in ('string',):
            out['type'] = 'string'
        elif kind in ('integer', 'long'):
            out['type'] = 'integer'
        elif kind == 'boolean':
            out['type'] = 'boolean'
        elif kind == 'timestamp':
            # An instant: validation stores it in one spelling (UTC, seconds, Z) and so is the
            # answer read, so that 2027-01-01 and S3's 2027-01-01T00:00:00.000Z are the same.
            out['type'] = 'timestamp'
        elif kind == 'structure':
            if depth > 6:
                raise Bad(f'{member}: structures nest too deep')
            out['type'] = 'object'
            out['fields'] = self.fields(shape, renames, depth + 1, ref['shape'])
        elif kind == 'list':
            out['type'] = 'list'
            item = self.field('item', 'item', shape['member'], '', renames, depth + 1)
            del item['member']
            out['items'] = item
            if 'max' in shape:
                out['maxItems'] = shape['max']
        elif kind == 'map':
            out['type'] = 'map'
            key = self.shapes[shape['key']['shape']]
            value = self.field('value', 'value', shape['value'], '', renames, depth + 1)
            del value['member']
            out['values'] = value
            constraints(key, out)
        else:
            raise Bad(f'{member}: the {kind} type is not supported')
        if kind not in ('map', 'list', 'structure'):
            constraints(shape, out)
        text = plain(doc if doc is not None else ref.get('documentation', ''))
        if text:
            out['doc'] = text
        return out

    def fields(self, shape, renames, depth=0, shape_name=None):
        out = []
        for member, ref in shape['members'].items():
            # `omit: [Shape.Member]` leaves out a member of a nested structure (what ACK's kind
            # does not have, or Converge cannot send: a bucket's MFADelete needs an MFA code).
            if f'{shape_name}.{member}' in self.nested_omit:
                continue
            name = renames.get(member, member[:1].lower() + member[1:])
            f = self.field(name, member, ref, None, renames, depth)
            # What the model requires of a nested structure (a key schema element's
            # AttributeName and KeyType) is refused at validation, not at the call.
            if member in shape.get('required', []):
                f['required'] = True
            out.append(f)
        return out


def constraints(shape, out):
    if shape['type'] == 'string':
        if 'min' in shape:
            out['minLength'] = shape['min']
        if 'max' in shape:
            out['maxLength'] = shape['max']
        if 'pattern' in shape:
            # The models write code points as Java does (\u0009); PCRE, which Qt's regular
            # expressions are, as \x{0009}.
            out['pattern'] = re.sub(r'\\u([0-9A-Fa-f]{4})', r'\\x{\1}', shape['pattern'])
    elif shape['type'] in ('integer', 'long'):
        if 'min' in shape:
            out['minimum'] = shape['min']
        if 'max' in shape:
            out['maximum'] = shape['max']


def call(service, spec, defaults, kind_name, what):
    """A call of the declaration from its correction: an operation name or an object."""
    if isinstance(spec, str):
        spec = {'operation': spec}
    out = {'operation': spec['operation']}
    service.operation(spec['operation'])
    service.used_operations.append(spec['operation'])
    if 'clear' in spec:
        service.operation(spec['clear'])
        service.used_operations.append(spec['clear'])
    members, _ = service.input_members(spec['operation'])
    given = spec.get('input')
    inputs = dict(given) if given is not None else {
        k: v for k, v in defaults.items() if k in members}
    for member in inputs:
        if member not in members:
            raise Bad(f'{kind_name}.{what}: {spec["operation"]} has no input member {member}')
    out['input'] = inputs
    for key in ('result', 'match', 'matchFields', 'fields', 'members', 'member', 'shape', 'each',
                'inputToken', 'outputToken', 'limitKey', 'item', 'key', 'value', 'absent',
                'into', 'clear'):
        if key in spec:
            out[key] = spec[key]
    page = service.pages.get(spec['operation'])
    if page and spec.get('paginate', True) and what in ('read', 'list', 'locate', 'collections.read'):
        out['inputToken'] = page['input_token']
        out['outputToken'] = page['output_token']
        if what == 'list':
            if 'limit_key' in page:
                out['limitKey'] = page['limit_key']
            if 'result' not in out:
                key = page['result_key']
                out['result'] = key[0] if isinstance(key, list) else key
    if 'limit' in spec:
        out['limit'] = spec['limit']
    # A Google PATCH names what it changes in its updateMask: it carries the changed fields only.
    if what == 'update' and service.operation(spec['operation']).get('google', {}).get('mask'):
        out['changedOnly'] = True
    # What an SDK fills with a fresh UUID when it is not given (ClientRequestToken).
    for member, ref in members.items():
        if ref.get('idempotencyToken') and member not in inputs:
            out['idempotencyToken'] = member
    return out


def kind(service, name, c):
    renames = c.get('rename', {})
    service.nested_omit = {m for m in c.get('omit', []) if '.' in m}
    identity = c.get('identity', {})
    create = c.get('create')
    spec_fields = []
    if create:
        members, required = service.input_members(create if isinstance(create, str)
                                                  else create['operation'])
        omitted = set(c.get('omit', []))
        for member, ref in members.items():
            if member in omitted:
                continue
            field_name = renames.get(member, member[:1].lower() + member[1:])
            f = service.field(field_name, member, ref, None, renames)
            if member in required:
                f['required'] = True
            spec_fields.append(f)
    for field_name, source in c.get('add', {}).items():
        members, _ = service.input_members(source['from'])
        ref = members[source['member']]
        spec_fields.append(service.field(field_name, source['member'], ref, None, renames))
    # Fields read and changed item by item (an IAM role's policies): no member of their own.
    collections = []
    for field_name, col in c.get('collections', {}).items():
        f = {'name': field_name, 'type': col['type']}
        if col['type'] == 'list':
            f['items'] = {'name': 'item', 'type': 'string'}
        else:
            f['values'] = {'name': 'value', 'type': 'string'}
        if col.get('doc'):
            f['doc'] = col['doc']
        spec_fields.append(f)
        entry = {'field': field_name, 'type': col['type']}
        for part in ('read', 'value', 'add', 'remove'):
            if part in col:
                entry[part] = call(service, col[part], identity, name, 'collections.' + part)
        if col.get('documents'):
            entry['documents'] = True
        collections.append(entry)
    attributes = c.get('attributes')
    attribute_fields = []
    if attributes:
        # The model documents a map's keys only in prose: "<code>Name</code> – what it is".
        members, _ = service.input_members(attributes['docsFrom'])
        prose = members[attributes['member']].get('documentation', '')
        docs = {m.group(1): plain(m.group(2)) for m in re.finditer(
            r'<code>(\w+)</code>\s*(?:–|-)\s*(.*?)</p>', prose, re.S)}
        for field_name, member in attributes['fields'].items():
            f = {'name': field_name, 'member': member, 'type': 'string'}
            if member in docs:
                f['doc'] = docs[member]
            attribute_fields.append(f)
        spec_fields.extend(attribute_fields)
    by_name = {f['name']: f for f in spec_fields}

    def mark(key, value):
        for field_name in c.get(key, []):
            if field_name not in by_name:
                raise Bad(f'{name}.{key}: no field {field_name}')
            by_name[field_name][value[0]] = value[1]
    mark('immutable', ('immutable', True))
    mark('notCompared', ('compared', False))
    mark('required', ('required', True))
    for field_name, member in c.get('observed', {}).items():
        by_name[field_name]['observed'] = member
    for field_name, text in c.get('docs', {}).items():
        by_name[field_name]['doc'] = text
    # Values the model allows that Converge does not (yet): a SecureString's value must not be
    # stored in the workspace.
    for field_name, values in c.get('enums', {}).items():
        by_name[field_name]['enum'] = values
    # Rules the model leaves to its prose (a recovery window of 7 to 30 days).
    # A dotted name reaches into an object's fields or a list's items (a DynamoDB index's
    # `globalSecondaryIndexes.projection`).
    def nested(key, field_name):
        first, *rest = field_name.split('.')
        if first not in by_name:
            raise Bad(f'{name}.{key}: no field {field_name}')
        f = by_name[first]
        for part in rest:
            if f.get('type') == 'list':
                f = f['items']
            f = next((x for x in f.get('fields', []) if x['name'] == part), None)
            if f is None:
                raise Bad(f'{name}.{key}: no field {field_name}')
        return f
    for field_name, rules in c.get('constraints', {}).items():
        f = nested('constraints', field_name)
        f.update(rules)
        if rules.get('required') is False:
            del f['required']
    # Fields of an object that no call carries as they are (a Lambda function's code.file, which
    # its hook zips and sends as ZipFile): spec-only, without a member.
    for field_name, extra in c.get('extend', {}).items():
        f = nested('extend', field_name)
        if f.get('type') != 'object':
            raise Bad(f'{name}.extend: {field_name} is not an object')
        f['fields'].extend(dict(x) for x in extra)
    # Maps whose values may be given by reference instead ({env: VARIABLE}, ...: a Lambda
    # function's environment), for values that are secrets: read where they are sent (the
    # kind's hook), never stored.
    for field_name in c.get('valuesByReference', []):
        f = nested('valuesByReference', field_name)
        if f.get('type') != 'map' or f['values'].get('type') != 'string':
            raise Bad(f'{name}.valuesByReference: {field_name} is not a map of strings')
        f['values']['type'] = 'textOrSecretRef'
    # A value given only by reference ({env: VARIABLE}, ...): core makes the field's schema.
    secrets = []
    for field_name, secret in c.get('secrets', {}).items():
        if field_name not in by_name:
            raise Bad(f'{name}.secrets: no field {field_name}')
        f = by_name[field_name]
        for key in ('minLength', 'maxLength', 'pattern', 'enum'):
            f.pop(key, None)
        f['type'] = 'secretRef'
        secrets.append({'field': field_name,
                        'read': call(service, secret['read'], identity, name, 'secrets.read')})
    name_field = c.get('nameField', '')
    if name_field:
        f = by_name[name_field]
        f['doc'] = (f.get('doc', '') + ' metadata.name by default.').strip()
        f.pop('required', None)
    # Key order is fixed so that the file reads the same at every generation.
    f_order = ['name', 'member', 'observed', 'type', 'required', 'immutable', 'secret',
               'compared', 'default', 'enum', 'minLength', 'maxLength', 'pattern', 'minimum',
               'maximum', 'maxItems', 'doc', 'fields', 'items', 'values']

    def ordered(f):
        out = {k: f[k] for k in f_order if k in f}
        if 'fields' in out:
            out['fields'] = [ordered(x) for x in out['fields']]
        for key in ('items', 'values'):
            if key in out:
                out[key] = ordered(out[key])
        return out

    out = {'kind': name}
    out['description'] = c.get('description', '')
    if c.get('hook'):
        out['hook'] = c['hook']
    if name_field:
        out['nameField'] = name_field
    out['nameMember'] = c.get('nameMember', '')
    out['idMember'] = c.get('idMember', '')
    if c.get('idIsName'):
        out['idIsName'] = True
    if 'ack' in c:
        out['ack'] = c['ack']
    if 'kcc' in c:
        out['kcc'] = c['kcc']
    out['fields'] = [ordered(f) for f in spec_fields]
    # A reference (topicRef: {name}) is made by core beside the ID field it stands in for.
    for reference in c.get('references', []):
        if reference['idField'] not in by_name:
            raise Bad(f"{name}.references: no field {reference['idField']}")
    if 'references' in c:
        out['references'] = c['references']
    if attributes:
        out['attributes'] = {'member': attributes['member'],
                             'members': [f['member'] for f in attribute_fields]}
    if 'locate' in c:
        out['locate'] = call(service, c['locate'], identity, name, 'locate')
    if create:
        create_call = call(service, create, {}, name, 'create')
        create_members = service.input_members(create_call['operation'])[0]
        create_call['fields'] = [
            f['name'] for f in spec_fields
            if (f.get('member') in create_members or
                (f in attribute_fields and attributes['member'] in create_members))
            and f['name'] not in c.get('notInCreate', [])]
        out['create'] = create_call
    out['alreadyExists'] = c.get('alreadyExists', [])
    if c.get('createIsIdempotent'):
        out['createIsIdempotent'] = True
    # A Google create that answers the resource as the read does (not a long-running operation):
    # its answer is the observation.
    if create and service.meta.get('protocol') == 'google-rest':
        read_op = c['read'] if isinstance(c['read'], str) else c['read']['operation']
        create_op = create if isinstance(create, str) else create['operation']
        if service.operation(create_op)['output'] == service.operation(read_op)['output']:
            out['createAnswersResource'] = True
    out['read'] = call(service, c['read'], identity, name, 'read')
    if 'followReads' in c:
        out['followReads'] = [call(service, f, identity, name, 'followRead')
                              for f in c['followReads']]
    out['updates'] = [call(service, u, identity, name, 'update') for u in c.get('updates', [])]
    if 'delete' in c:
        out['delete'] = call(service, c['delete'], identity, name, 'delete')
    if 'list' in c:
        out['list'] = call(service, c['list'], {}, name, 'list')
    # A kind listed parent by parent (a Spanner instance's databases): the parents' list, and the
    # member of the kind's list each parent's ID goes in (its last segment).
    if 'listWithin' in c:
        within = call(service, c['listWithin'], {}, name, 'list')
        within['member'] = c['listWithin']['member']
        out['listWithin'] = within
    out['listIsComplete'] = c.get('listIsComplete', False)
    # The API's answer for a missing resource says nothing sure (the Spanner emulator's 500): the
    # list says whether it is there.
    if c.get('absentConfirmedByList'):
        out['absentConfirmedByList'] = True
    # Google's long-running operations of a resource not done yet: an update in flight.
    if 'pending' in c:
        out['pending'] = call(service, c['pending'], identity, name, 'pending')
    if 'listExclude' in c:
        out['listExclude'] = c['listExclude']
    if c.get('listItemsAreIds'):
        out['listItemsAreIds'] = True
    if 'tags' in c:
        t = c['tags']
        tags = {'field': t['field'], 'shape': t.get('shape', 'map')}
        for part in ('read', 'add', 'remove'):
            tags[part] = call(service, t[part], identity, name, 'tags.' + part)
        out['tags'] = tags
    if secrets:
        out['secrets'] = secrets
    if collections:
        out['collections'] = collections
    if c.get('secretWhen'):
        out['secretWhen'] = c['secretWhen']
    if c.get('writeOnly'):
        for field_name in c['writeOnly']:
            if field_name not in by_name:
                raise Bad(f'{name}.writeOnly: no field {field_name}')
        out['writeOnly'] = c['writeOnly']
    if c.get('unordered'):
        out['unordered'] = c['unordered']
    if c.get('documents'):
        for field_name in c['documents']:
            if field_name not in by_name:
                raise Bad(f'{name}.documents: no field {field_name}')
        out['documents'] = c['documents']
    if 'oneOf' in c:
        out['oneOf'] = c['oneOf']
    if 'states' in c:
        out['states'] = c['states']
    # Members sent as a full name but declared by a short one (a Spanner instance's config,
    # projects/P/instanceConfigs/CONFIG): the client adds the prefix to what each call sends,
    # the Manager observes the last segment.
    if c.get('fullNames'):
        for field_name, prefix in c['fullNames'].items():
            f = by_name.get(field_name)
            if f is None:
                raise Bad(f'{name}.fullNames: no field {field_name}')
            for op_name in set(service.used_operations):
                op = service.operation(op_name)
                if f['member'] in service.input_members(op_name)[0] and 'google' in op:
                    op['google'].setdefault('fullNames', {})[f['member']] = prefix
        out['shortNames'] = sorted(c['fullNames'])
    # Spec fields the resource's ID says (a database's instance): the segment before each.
    if c.get('fromId'):
        for field_name in c['fromId']:
            if field_name not in by_name:
                raise Bad(f'{name}.fromId: no field {field_name}')
        out['fromId'] = c['fromId']
    out['notFound'] = c.get('notFound', [])
    return out


SHAPE_KEYS = ('type', 'payload', 'flattened', 'locationName', 'xmlNamespace')  # and order
REF_KEYS = ('shape', 'location', 'locationName', 'xmlNamespace', 'flattened')


def rest_model(service):
    """The REST protocols' (rest-xml, rest-json) part of a declaration: each operation the kinds call, bound to its
    method and URI template, and the shapes its input and output reach, as botocore spells them
    without their documentation (core's AwsRestXml and AwsRestJson read them as botocore's client does)."""
    operations = {}
    reached = set()

    def reach(name):
        if name in reached:
            return
        reached.add(name)
        shape = service.shapes[name]
        for ref in list(shape.get('members', {}).values()) + [
                shape[k] for k in ('member', 'key', 'value') if k in shape]:
            reach(ref['shape'])

    for name in sorted(set(service.used_operations)):
        op = service.operation(name)
        entry = {'method': op['http']['method'], 'requestUri': op['http']['requestUri']}
        for part in ('input', 'output'):
            if part in op:
                entry[part] = op[part]['shape']
                reach(op[part]['shape'])
        if op.get('httpChecksumRequired') or op.get('httpChecksum', {}).get(
                'requestChecksumRequired'):
            entry['checksumRequired'] = True
        operations[name] = entry

    def ref_of(ref):
        return {k: ref[k] for k in REF_KEYS if k in ref}

    shapes = {}
    for name in sorted(reached):
        shape = service.shapes[name]
        out = {k: shape[k] for k in SHAPE_KEYS if k in shape}
        if 'members' in shape:
            out['members'] = {m: ref_of(r) for m, r in shape['members'].items()}
            # JSON readers may sort an object's keys; XML elements go in the model's order.
            out['order'] = list(shape['members'])
        for k in ('member', 'key', 'value'):
            if k in shape:
                out[k] = ref_of(shape[k])
        shapes[name] = out
    return operations, shapes


REST_FIXTURES = os.path.join(ROOT, 'tests', 'data', 'rest')


def rest_fixture(data, name, operation_names):
    """The REST part of SERVICE's declaration for these operations alone (--operations)."""
    service = Service(name, *model(data, name))
    for operation in operation_names:
        service.operation(operation)
        service.used_operations.append(operation)
    operations, shapes = rest_model(service)
    return json.dumps({'generated': f'by scripts/kinds/generate.py --operations '
                                    f'{",".join(operation_names)} {name} from botocore '
                                    f'{name}/{service.meta["apiVersion"]}; do not edit',
                       'service': name, 'protocol': service.meta['protocol'],
                       'operations': operations, 'shapes': shapes},
                      indent=1, ensure_ascii=False) + '\n'


def stale_rest_fixtures(data):
    """The fixtures of tests/data/rest that differ from what their own command gives now."""
    stale = []
    if not os.path.isdir(REST_FIXTURES):
        return stale
    for file in sorted(f for f in os.listdir(REST_FIXTURES) if f.endswith('.json')):
        path = os.path.join(REST_FIXTURES, file)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        old = json.loads(text)
        names = old['generated'].split('--operations ')[1].split(' ')[0].split(',')
        if rest_fixture(data, old['service'], names) != text:
            stale.append(os.path.relpath(path, ROOT))
    return stale


def generate(data, source, corrections):
    if corrections.get('source') == 'google':
        api_model = googlemodel.model(data, corrections['service'], corrections['version'],
                                      corrections.get('title', corrections['service']))
        service = Service(corrections['service'], api_model, {})
    else:
        service = Service(corrections['service'], *model(data, corrections['service']))
    meta = service.meta
    protocol = meta.get('protocol')
    if protocol not in ('json', 'query', 'rest-xml', 'rest-json', 'google-rest'):
        raise Bad(f'{service.name}: the {protocol} protocol is not supported')
    declared = {
        'format': 1,
        'generated': f'by scripts/kinds/generate.py from {source} '
                     f'{service.name}/{meta["apiVersion"]} and corrections/{service.name}.yaml; '
                     'do not edit',
        'service': {
            'name': service.name,
            'title': corrections.get('title', meta.get('serviceId', service.name)),
            'protocol': protocol,
            'signingName': meta.get('signingName', meta['endpointPrefix']),
            'endpointPrefix': meta['endpointPrefix'],
            'apiVersion': meta['apiVersion'],
        },
        'kinds': [kind(service, name, c) for name, c in corrections['kinds'].items()],
    }
    if protocol == 'json':
        declared['service']['jsonVersion'] = meta['jsonVersion']
        declared['service']['targetPrefix'] = meta['targetPrefix']
    # `operations:` carries the model of calls a hand-written kind of the service makes
    # (S3Object's PutObject, HeadObject, …), which no declared kind names.
    for name in corrections.get('operations', []):
        service.operation(name)
        service.used_operations.append(name)
    if protocol in ('rest-xml', 'rest-json'):
        declared['service']['operations'], declared['shapes'] = rest_model(service)
    if protocol == 'google-rest':
        # JSON is JSON both ways: the binding of each operation called is all the client needs.
        declared['service']['operations'] = {
            name: service.operation(name)['google'] for name in sorted(set(service.used_operations))}
    return json.dumps(declared, indent=1, ensure_ascii=False) + '\n'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--check', action='store_true')
    parser.add_argument('--data', help="botocore's data folder")
    parser.add_argument('--sdk', help="the Google Cloud CLI's root folder")
    parser.add_argument('--source', choices=('botocore', 'google'),
                        help="only the services of this source (each test checks one, so that "
                             "each skips on its own)")
    parser.add_argument('--operations', help='print the REST model of these operations')
    parser.add_argument('services', nargs='*')
    args = parser.parse_args()
    data = botocore_data(args.data)
    sdk = googlemodel.sdk_root(args.sdk)
    if args.operations:
        if not data:
            print('skipped: botocore not found (pip install botocore, or --data DIR)',
                  file=sys.stderr)
            return 3
        if len(args.services) != 1:
            print('generate.py: --operations takes one service', file=sys.stderr)
            return 2
        try:
            print(rest_fixture(data, args.services[0], args.operations.split(',')), end='')
        except (Bad, KeyError) as e:
            print(f'generate.py: {e}', file=sys.stderr)
            return 2
        return 0
    # Each source's services, from its correction files. The source's version is left out of
    # the files so that a newer botocore or CLI that changes nothing in these services changes
    # nothing here.
    sources = [
        ('botocore', data, CORRECTIONS, GENERATED,
         'botocore not found (pip install botocore, or --data DIR)'),
        ('the Google Cloud CLI', sdk, GCP_CORRECTIONS, GCP_GENERATED,
         'the Google Cloud CLI not found (the Debian package google-cloud-cli, or --sdk DIR)'),
    ]
    differ = []
    found = 0
    try:
        for source, location, corrections_dir, generated_dir, missing in sources:
            if args.source and (args.source == 'google') != (location is sdk):
                continue
            names = sorted(f[:-5] for f in os.listdir(corrections_dir) if f.endswith('.yaml'))
            if args.services:
                names = [n for n in names if n in args.services]
            if not names:
                continue
            if not location:
                print(f'skipped: {missing}; not checked: {", ".join(names)}', file=sys.stderr)
                continue
            found += 1
            for name in names:
                corrections = load_yaml(os.path.join(corrections_dir, name + '.yaml'))
                text = generate(location, source, corrections)
                target = os.path.join(generated_dir, name + '.json')
                old = open(target, encoding='utf-8').read() if os.path.exists(target) else None
                if args.check:
                    if old != text:
                        differ.append(name)
                elif old != text:
                    with open(target, 'w', encoding='utf-8') as f:
                        f.write(text)
                    print(f'wrote {os.path.relpath(target, ROOT)}')
            if args.check and not args.services and source == 'botocore':
                differ.extend(stale_rest_fixtures(data))
    except (Bad, KeyError, googlemodel.GoogleModelError) as e:
        print(f'generate.py: {e}', file=sys.stderr)
        return 2
    if differ:
        print('generate.py: these declarations differ from what the models give; run '
              'scripts/kinds/generate.py (for a fixture of tests/data/rest, the command its '
              '"generated" names) and commit the result: ' + ', '.join(differ),
              file=sys.stderr)
        return 1
    return 0 if found else 3


if __name__ == '__main__':
    sys.exit(main())

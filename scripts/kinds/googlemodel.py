# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
"""Google's API models in botocore's shape, for generate.py.

Google publishes each REST API's model as a discovery document; the Google Cloud CLI ships it
compiled into Python (apitools: `googlecloudsdk/generated_clients/apis/API/VERSION/`), with each
method's HTTP binding (`method_config()`: the verb, the path, the body's field, the query
parameters) and each message's fields, types and documentation. This module imports those two
modules from the CLI's own library (no network, no pip) and answers a model in the form
generate.py reads botocore's in: `{metadata, operations, shapes}`, operations by Google's method
ID without the API's name (`projects.topics.create`), and for each the binding core's
GcpRestClient follows (`google`: method, path, body, wrap, mask, query).

An operation's input is what the declaration's calls fill: the path's parameters but the project
(`topicsId`; GcpRestClient puts the project's ID in `projectsId`), the query parameters, and the
body's fields. A create whose body is the resource itself (Pub/Sub's PUT of a Topic) has the
resource's fields as its members; a patch whose body is `{topic, updateMask}` has the topic's
fields too, and GcpRestClient puts the fields a call carries under `topic` and names them in
`updateMask`. Members beside the wrapped resource (`instanceId` of `{instance, instanceId}`) stay
at the body's top level (`beside`); a mask in the query string (`maskInQuery`) names the members
of a body that is the resource itself.
"""

import importlib
import os
import re
import shutil
import subprocess
import sys


class GoogleModelError(Exception):
    pass


def sdk_root(explicit=None):
    """The Google Cloud CLI's root: --sdk, CLOUDSDK_ROOT_DIR, or gcloud's on PATH."""
    for candidate in (explicit, os.environ.get('CLOUDSDK_ROOT_DIR')):
        if candidate and os.path.isdir(os.path.join(candidate, 'lib', 'googlecloudsdk')):
            return candidate
    gcloud = shutil.which('gcloud')
    if gcloud:
        root = os.path.dirname(os.path.dirname(os.path.realpath(gcloud)))
        if os.path.isdir(os.path.join(root, 'lib', 'googlecloudsdk')):
            return root
        try:
            found = subprocess.run([gcloud, 'info', '--format=value(installation.sdk_root)'],
                                   capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            found = ''
        if found and os.path.isdir(os.path.join(found, 'lib', 'googlecloudsdk')):
            return found
    return None


def _modules(root, api, version):
    for path in (os.path.join(root, 'lib'), os.path.join(root, 'lib', 'third_party')):
        if path not in sys.path:
            sys.path.insert(0, path)
    package = f'googlecloudsdk.generated_clients.apis.{api}.{version}'
    try:
        client = importlib.import_module(f'{package}.{api}_{version}_client')
        messages = importlib.import_module(f'{package}.{api}_{version}_messages')
    except ImportError as e:
        raise GoogleModelError(f'the Google Cloud CLI at {root} has no {api} {version} ({e})')
    return client, messages


def _field_docs(message):
    """A message's docstring's `Fields:` section: field name → its text on one line."""
    docs = {}
    text = message.__doc__ or ''
    section = re.search(r'\n  Fields:\n(.*)', text, re.S)
    if not section:
        return docs
    current = None
    for line in section.group(1).split('\n'):
        entry = re.match(r'    (\w+): (.*)', line)
        if entry:
            current = entry.group(1)
            docs[current] = entry.group(2).strip()
        elif current and line.startswith('      '):
            # Lines are cut at a word's hyphen too ("best- effort").
            joint = '' if re.search(r'[a-z]-$', docs[current]) else ' '
            docs[current] += joint + line.strip()
        elif line.strip():
            current = None
    return docs


def _description(message):
    text = (message.__doc__ or '').split('\n\n')[0]
    return ' '.join(text.split())


class _Shapes:
    def __init__(self):
        self.shapes = {}

    def name(self, message):
        return message.__qualname__

    def message(self, message):
        """The shape of a message: a structure, or a map for apitools' AdditionalProperty."""
        name = self.name(message)
        if name in self.shapes:
            return name
        fields = list(message.all_fields())
        if (len(fields) == 1 and fields[0].name == 'additionalProperties'
                and fields[0].repeated):
            entry = fields[0].type
            self.shapes[name] = {'type': 'map'}  # placeholder against cycles
            value = entry.field_by_name('value')
            self.shapes[name] = {'type': 'map', 'key': {'shape': 'String'},
                                 'value': self.ref(value)}
            self.shapes.setdefault('String', {'type': 'string'})
            return name
        self.shapes[name] = {'type': 'structure', 'members': {}}
        docs = _field_docs(message)
        members = {}
        required = []
        for field in sorted(fields, key=lambda f: f.number):
            ref = self.ref(field)
            if field.name in docs:
                # "Optional." opens most; "Required." is said by the shape's `required`.
                ref['documentation'] = re.sub(r'^(Optional|Required)\.\s*', '', docs[field.name])
                if docs[field.name].startswith('Required.'):
                    required.append(field.name)
            members[field.name] = ref
        self.shapes[name] = {'type': 'structure', 'members': members,
                             'documentation': _description(message)}
        if required:
            self.shapes[name]['required'] = required
        return name

    def ref(self, field):
        kind = type(field).__name__
        if kind == 'MessageField':
            shape = self.message(field.type)
        elif kind == 'EnumField':
            values = [str(v) for v in field.type if not str(v).endswith('_UNSPECIFIED')]
            shape = self.name(field.type)
            self.shapes[shape] = {'type': 'string', 'enum': values}
        elif kind == 'StringField':
            shape = 'String'
            self.shapes.setdefault(shape, {'type': 'string'})
        elif kind == 'BooleanField':
            shape = 'Boolean'
            self.shapes.setdefault(shape, {'type': 'boolean'})
        elif kind == 'IntegerField':
            # int64 travels as a JSON string; Google reads a number as well.
            variant = str(getattr(field, 'variant', ''))
            shape = 'Long' if variant in ('INT64', 'UINT64', 'SINT64') else 'Integer'
            self.shapes.setdefault(shape, {'type': 'long' if shape == 'Long' else 'integer'})
        elif kind == 'FloatField':
            shape = 'Double'
            self.shapes.setdefault(shape, {'type': 'double'})
        elif kind == 'BytesField':
            shape = 'Blob'
            self.shapes.setdefault(shape, {'type': 'blob'})
        else:
            raise GoogleModelError(f'{field.name}: the {kind} type is not supported')
        if field.repeated:
            list_name = shape + 'List'
            self.shapes.setdefault(list_name, {'type': 'list', 'member': {'shape': shape}})
            shape = list_name
        return {'shape': shape}


def model(root, api, version, title):
    """botocore's shape of the API `api` `version` as the CLI at `root` ships it."""
    client, messages = _modules(root, api, version)
    client_class = next((c for c in vars(client).values()
                         if isinstance(c, type) and getattr(c, '_PACKAGE', None) == api), None)
    if client_class is None:
        raise GoogleModelError(f'{api} {version}: no client class')
    shapes = _Shapes()
    operations = {}
    for service_name, service in sorted(vars(client_class).items()):
        if not (isinstance(service, type) and service_name.endswith('Service')):
            continue
        for method_name, method in sorted(vars(service).items()):
            config = getattr(method, 'method_config', None)
            if config is None:
                continue
            c = config()
            op = c.method_id.split('.', 1)[1]
            request = getattr(messages, c.request_type_name)
            response = getattr(messages, c.response_type_name)
            path = '/' + c.flat_path
            params = re.findall(r'\{(\w+)\}', path)
            members = {}
            for param in params:
                if param != 'projectsId':
                    members[param] = {'shape': 'String',
                                      'documentation': f'The {param[:-2]} in the path.'}
            shapes.shapes.setdefault('String', {'type': 'string'})
            for query in c.query_params:
                field = request.field_by_name(query)
                members[query] = shapes.ref(field)
            binding = {'method': c.http_method, 'path': path}
            if c.query_params:
                binding['query'] = list(c.query_params)
            body = None
            if c.request_field == '<request>':
                body = request
                binding['body'] = '*'
            elif c.request_field:
                body_message = request.field_by_name(c.request_field).type
                # A request that wraps the resource (`{topic, updateMask}`, `{instance,
                # instanceId}`): its member named after the path's collection goes under `wrap`,
                # a field mask names what changes, the other members go beside.
                collection = [p for p in re.findall(r'/(\w+)', path) if not p.startswith('v')]
                singular = collection[-1][:-1] if collection and collection[-1].endswith('s') \
                    else None
                fields = {f.name: f for f in body_message.all_fields()}
                inner = fields.get(singular)
                if inner is not None and type(inner).__name__ == 'MessageField':
                    body = inner.type
                    binding['body'] = '*'
                    binding['wrap'] = singular
                    for mask in ('updateMask', 'fieldMask'):
                        if mask in fields:
                            binding['mask'] = mask
                    beside = [f for f in sorted(fields)
                              if f not in (singular, binding.get('mask'))]
                    if beside:
                        binding['beside'] = beside
                        for member in beside:
                            members[member] = shapes.ref(fields[member])
                else:
                    body = body_message
                    binding['body'] = '*'
                    # The resource itself, with the mask in the query (a Spanner database's
                    # PATCH): the members it carries are named there.
                    if 'updateMask' in c.query_params:
                        binding['mask'] = 'updateMask'
                        binding['maskInQuery'] = True
                        binding['query'].remove('updateMask')
                        if not binding['query']:
                            del binding['query']
                        members.pop('updateMask', None)
            required = []
            if body is not None:
                body_shape = shapes.shapes[shapes.message(body)]
                path_fields = set(c.path_params)
                for member, ref in body_shape.get('members', {}).items():
                    if member not in path_fields and member not in members:
                        members[member] = ref
                        if member in body_shape.get('required', []):
                            required.append(member)
            input_name = op + '.input'
            shapes.shapes[input_name] = {'type': 'structure', 'members': members}
            if required:
                shapes.shapes[input_name]['required'] = required
            operations[op] = {'name': op, 'input': {'shape': input_name},
                              'output': {'shape': shapes.message(response)},
                              'google': binding}
    return {
        'metadata': {'protocol': 'google-rest', 'apiVersion': version, 'endpointPrefix': api,
                     'signingName': api, 'serviceId': title},
        'operations': operations,
        'shapes': shapes.shapes,
    }

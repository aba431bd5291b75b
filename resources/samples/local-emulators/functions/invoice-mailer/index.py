# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
# The Quick start's Lambda function: Converge zips this folder and deploys it; a change of this
# file is a new CodeSha256, and the next reconcile deploys it.
import os


def handler(event, context):
    return {"sent": len(event.get("invoices", [])), "from": os.environ.get("SENDER", "")}

# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
# A Lambda function's code for the tests: zipped from this folder by Converge.
def handler(event, context):
    return {"order": event.get("id"), "accepted": True}

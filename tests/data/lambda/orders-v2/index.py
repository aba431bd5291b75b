# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
# The next version of tests/data/lambda/orders: another CodeSha256.
def handler(event, context):
    return {"order": event.get("id"), "accepted": event.get("total", 0) > 0}

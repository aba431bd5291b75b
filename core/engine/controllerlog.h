// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QLoggingCategory>

/// converge.engine.controller: the controller and the units it is made of (scheduling, workers,
/// discovery, start-up, user requests) log under one category, defined in controller.cpp.
Q_DECLARE_LOGGING_CATEGORY(lcController)

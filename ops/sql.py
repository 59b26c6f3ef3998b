"""Hot-path SQL: the few statements every move runs, built once instead of compiled per call.

Why: on the move path the ORM's per-call query compilation cost more CPU than
everything else a move does (measured on the 2-core machine: a locked
`select_related` read 1.2 ms, `save()` 0.7 ms, `create()` 0.5 ms, the token
lookup 0.86 ms; the same statements here 0.38, 0.43, 0.32 and 0.11 ms, see
docs/operations.md). Statements are built from the models' metadata, so a
renamed column changes them too, and values pass through the fields' own
`get_db_prep_save` and from-database converters: what is read and written is
exactly what the ORM would read and write. No signals are sent (none are used).

They run as prepared statements on server-side-binding cursors (the server parses
and plans each once per pooled connection), and `run` sends several writes as one
statement, in one round trip.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, cast

import psycopg
from django.db import connection
from django.db.models import Field, Model

Converter = Callable[[Any, Any, Any], Any]
Statement = tuple[str, list[Any]]


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def concrete_field(model: type[Model], name: str) -> Field[Any, Any]:
    """`model`'s field `name`; the callers name concrete fields, never reverse relations
    (which the stubs' `get_field` also allows, hence the cast)."""
    return cast("Field[Any, Any]", model._meta.get_field(name))


def quote_column(field: Field[Any, Any]) -> str:
    """A concrete field's column, quoted (the stubs allow None: a field without a column)."""
    return quote(cast(str, field.column))


class Columns:
    """The concrete columns of `model` under a table alias: the SELECT list and row → instance."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields: tuple[Field[Any, Any], ...] = tuple(model._meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]
        self.sql = ", ".join(f"{alias}.{quote_column(field)}" for field in self.fields)

    @property
    def converters(self) -> list[tuple[int, list[Converter]]]:
        """Per column, the converters the ORM would apply (e.g. JSON text → Python)."""
        return _converters(self.model, self.alias)

    def instance(self, values: Sequence[Any]) -> Model:
        row = list(values)
        for index, functions in self.converters:
            for function in functions:
                row[index] = function(row[index], self.fields[index], connection)
        return self.model.from_db(connection.alias, self.attnames, row)


@cache
def _converters(model: type[Model], alias: str) -> list[tuple[int, list[Converter]]]:
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(alias)
        functions = [
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection),
        ]
        if functions:
            found.append((index, functions))
    return found


def _execute(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """Run one prepared statement on Django's connection (its error wrapping kept); first row."""
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        return cursor.fetchone() if cursor.description else None


def fetch_instances(sql: str, params: Sequence[Any], *columns: Columns) -> list[Model] | None:
    """Run a one-row SELECT of `columns`' lists, in order; their instances, or None if no row."""
    found = fetch_row(sql, params, *columns)
    return None if found is None else found[0]


def fetch_row(
    sql: str, params: Sequence[Any], *columns: Columns
) -> tuple[list[Model], tuple[Any, ...]] | None:
    """`fetch_instances`, and the values the row has after `columns`' lists (as read)."""
    row = _execute(sql, params)
    if row is None:
        return None
    instances, start = [], 0
    for part in columns:
        end = start + len(part.fields)
        instances.append(part.instance(row[start:end]))
        start = end
    return instances, tuple(row[start:])


@cache
def _update_sql(model: type[Model], names: tuple[str, ...]) -> tuple[str, list[Field[Any, Any]]]:
    fields = [concrete_field(model, name) for name in names]
    assignments = ", ".join(f"{quote_column(field)} = %s" for field in fields)
    pk = quote_column(model._meta.pk)
    return f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {pk} = %s", fields


def update_of(instance: Model, names: tuple[str, ...]) -> Statement:
    """`instance.save(update_fields=names)` as a statement for `run`."""
    sql, fields = _update_sql(type(instance), names)
    params = [
        field.get_db_prep_save(getattr(instance, field.attname), connection) for field in fields
    ]
    return sql, [*params, instance.pk]


@cache
def _insert_sql(model: type[Model], names: tuple[str, ...]) -> tuple[str, list[Field[Any, Any]]]:
    fields = [concrete_field(model, name) for name in names]
    columns = ", ".join(quote_column(field) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})", fields


def insert_of(model: type[Model], **values: Any) -> Statement:
    """One row of `model` (its primary key from the database) as a statement for `run`."""
    sql, fields = _insert_sql(model, tuple(values))
    params = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, values.values(), strict=True)
    ]
    return sql, params


def run(*statements: Statement) -> None:
    """Execute writes in order, as one statement: the earlier ones as data-modifying WITHs."""
    *earlier, (last_sql, last_params) = statements
    withs = ", ".join(f"w{index} AS ({sql})" for index, (sql, _) in enumerate(earlier))
    params = [param for _, statement_params in earlier for param in statement_params]
    _execute(f"WITH {withs} {last_sql}" if earlier else last_sql, [*params, *last_params])

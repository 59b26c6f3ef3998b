#!/bin/sh
# Run once by the postgres image when it creates the cluster (/docker-entrypoint-initdb.d):
# the image's pg_hba.conf lets the network reach every database but not the replication
# protocol, which the `postgres-replica` service's pg_basebackup and WAL stream need.
set -eu
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"

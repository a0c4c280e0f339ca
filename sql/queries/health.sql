-- name: metrics_documents
SELECT status, count(*) AS n FROM document WHERE superseded_by IS NULL GROUP BY status;

-- name: metrics_runs
SELECT status, count(*) AS n FROM run GROUP BY status;

-- name: metrics_verdicts
SELECT verdict, count(*) AS n FROM verdict GROUP BY verdict;

-- name: metrics_deliveries
SELECT status, count(*) AS n FROM delivery GROUP BY status;

-- name: metrics_jobs
SELECT entrypoint, status::text AS status, count(*) AS n FROM pgqueuer GROUP BY entrypoint, status;

-- name: metrics_facts
SELECT count(*) FROM fact WHERE NOT superseded;

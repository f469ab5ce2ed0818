"""The Queue tab: adding files, the job table and a job's details."""

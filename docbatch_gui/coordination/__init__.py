"""Coordination between processes and machines: who may process jobs on a data
directory (``lock``), which machine leads the batch loop (``leader``), how busy the
team's machines are (``workload``) and whether the owner of a long task still lives
(``owner``)."""

"""Configuration as data: the document-type profile (its types, fields, page plan and
routing models) and the answer schema it implies, validated once at load.

It sits just above ``domain`` so that the pipeline, the checks and the LLM layer read
the profile without reaching up into a pipeline step; it does no I/O beyond reading
the profile file it is given.
"""

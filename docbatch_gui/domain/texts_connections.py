"""The words of *Test connection* and ``doctor`` for the backends other than Claude:
OCR engines, MongoDB, MinIO, Redis, Celery's broker and the mailbox. Product names,
hosts and versions are values; everything around them is worded here, so that a
Russian window answers in Russian.

code → English template, marked for the catalogue (``domain.messages``).
"""

from __future__ import annotations

from docbatch_gui.i18n import N_, Plural

CONNECTION_TEXTS: dict[str, str | Plural] = {
    "conn_unset_ocr": N_(
        "OCR_ENGINE is none (scans without a text layer go to review): nothing to test."
    ),
    "conn_unset_mongodb": N_(
        "MONGODB_URI is not set (the local database is used): nothing to test."
    ),
    "conn_unset_minio": N_(
        "MINIO_ENDPOINT is not set (files are kept in the data folder): nothing to test."
    ),
    "conn_unset_redis": N_("REDIS_URL is not set (this computer works alone): nothing to test."),
    "conn_unset_broker": N_("CELERY_BROKER_URL (or REDIS_URL) is not set: nothing to test."),
    "conn_unset_mail": N_(
        "MAIL_HOST and MAIL_USER are not set (no mailbox is read): nothing to test."
    ),
    "conn_silent": N_("{name} gave no answer within {seconds} s."),
    "conn_broke": N_("{name} could not be tested: an unexpected error."),
    "conn_mail_server": N_("The mail server"),
    "conn_vision_failed": N_(
        "Google Vision at {where} did not read the test image: check the endpoint, the "
        "credentials file and the network."
    ),
    "conn_vision_ok": N_("Google Vision at {where} answered."),
    "conn_tesseract_missing": N_(
        "Tesseract is not installed: apt-get install tesseract-ocr {packages}."
    ),
    "conn_tesseract_no_data": N_(
        "Tesseract lacks Russian or English data: apt-get install tesseract-ocr {packages}."
    ),
    "conn_tesseract_ok": N_("Tesseract reads {languages}."),
    "conn_mongodb_bad_uri": N_("The MongoDB URI is not valid: check MONGODB_URI."),
    "conn_mongodb_ok": N_("MongoDB {version} at {where} answered; database {name}."),
    "conn_mongodb_auth": N_("MongoDB at {where} refused the user name or password."),
    "conn_mongodb_refused": N_("MongoDB at {where} refused the request."),
    "conn_mongodb_silent": N_(
        "MongoDB at {where} did not answer within {seconds} s: check the address, the port "
        "and that the server runs."
    ),
    "conn_minio_auth": N_("MinIO at {where} refused: check the access key and the secret key."),
    "conn_minio_silent": N_(
        "MinIO at {where} did not answer: check the address, the port and that the server runs."
    ),
    "conn_minio_new_bucket": N_("MinIO at {where} answered; bucket {bucket} will be created."),
    "conn_minio_ok": N_("MinIO at {where}: bucket {bucket} exists."),
    "conn_redis_scheme": N_("The Redis URL must start with redis:// or rediss://."),
    "conn_redis_auth": N_("Redis at {where} refused the password."),
    "conn_redis_refused": N_("Redis at {where} refused the request."),
    "conn_redis_ok": N_("Redis at {where} answered PING."),
    "conn_redis_silent": N_("Redis at {where} did not answer within {seconds} s."),
    "conn_redis_unreachable": N_(
        "Cannot reach Redis at {where}: check the address, the port and that the server runs."
    ),
}

"""The words of what the outside services say: Claude (sync and Message Batches) and
Google Vision, from a refused key to a request that expired in a batch.

code → English template, marked for the catalogue (``domain.messages``).
"""

from __future__ import annotations

from docbatch_gui.i18n import N_, NN_, Plural

SERVICE_TEXTS: dict[str, str | Plural] = {
    # Claude
    "claude_key_refused": N_(
        "Claude refused the API key ({status}: {detail}). Check ANTHROPIC_API_KEY; processing has "
        "stopped and nothing else is sent until it is fixed.",
    ),
    "claude_billing": N_(
        "Claude refused the request for billing or permission reasons ({status}: {detail}). Check "
        "the account's plan and billing; processing has stopped.",
    ),
    "claude_timeout": N_("Claude did not answer in time (timeout)."),
    "claude_network": N_("Claude could not be reached (network)."),
    "claude_busy": N_("Claude is busy or failing ({status}: {detail})."),
    "claude_failed": N_("Claude call failed ({error})."),
    "claude_request_refused": N_(
        "Claude refused a request DocBatch built ({reason}). This is a DocBatch or configuration "
        "problem (model, effort, thinking), not a problem with the file: processing has stopped. "
        "Check Settings → Claude, run `docbatch doctor --live`, and report it if the settings are "
        "right.",
    ),
    # the Claude *Test connection* (``diagnostics.claude_words``)
    "claude_test_no_key": N_(
        "No API key is set: type the Anthropic API key above, then test again.",
    ),
    "claude_test_silent": N_(
        "Claude gave no answer within {seconds} s: check the network or a proxy, then test again.",
    ),
    "claude_test_ok": N_(
        "Claude answers at {where}: the key is accepted and {model} read the sample page (cost "
        "{cost}).",
    ),
    "claude_test_refused": N_(
        "Nothing answers at {where}: the connection was refused. Check the API address above "
        "(leave it empty for Anthropic's own), or start the server it names.",
    ),
    "claude_test_no_host": N_(
        "The host of {where} cannot be found. Check the spelling of the API address above, and the "
        "network.",
    ),
    "claude_test_tls": N_(
        "{where} answered, but its certificate was refused. Check the API address above, or a "
        "proxy that replaces certificates.",
    ),
    "claude_test_timeout": N_(
        "{where} did not answer in time. Check the network or a proxy, then test again.",
    ),
    "claude_test_unreachable": N_(
        "Claude cannot be reached at {where}. Check the network, a proxy, or the API address "
        "above.",
    ),
    "claude_test_api_refused": N_("{where} answered but refused the test: {reason}"),
    "claude_test_step_failed": N_("The test request to {where} failed: {reason}"),
    "claude_test_broke": N_(
        "The test could not run: an unexpected error (see Details). Send the details to support.",
    ),
    "sync_needs_key": N_(
        "{file}: sync mode needs ANTHROPIC_API_KEY. Set the key in Settings → Claude, or process "
        "the file offline.",
    ),
    "claude_job_timeout": N_(
        "{file}: Claude did not finish reading it within JOB_TIMEOUT ({seconds} s); the requests "
        "were stopped. Retry it later, or raise JOB_TIMEOUT for very long files.",
    ),
    "claude_answer_too_long": N_(
        "The answer for pages {pages} did not fit in {budget} output tokens, even after one retry "
        "with a larger budget. Lower GROUP_SIZE (fewer pages per request) or lower CLAUDE_EFFORT, "
        "then retry the job: answered pages are kept.",
    ),
    "claude_invalid_answer": N_("invalid answer: {problem}"),
    "claude_requests_failed": NN_(
        "{file}: {failed} of {total} request to Claude failed; first: {first}",
        "{file}: {failed} of {total} requests to Claude failed; first: {first}",
        "total",
    ),
    "claude_requests_failed_retry": NN_(
        "{file}: {failed} of {total} request to Claude failed; first: {first} Retry the job: "
        "answered pages are kept.",
        "{file}: {failed} of {total} requests to Claude failed; first: {first} Retry the job: "
        "answered pages are kept.",
        "total",
    ),
    "batch_requests_failed": NN_(
        "{file}: {count} request failed {times}; last: {last}. Retry the job: answered pages are "
        "kept.",
        "{file}: {count} requests failed {times}; last: {last}. Retry the job: answered pages are "
        "kept.",
        "count",
    ),
    "file_error": N_("{file}: {error}"),
    # a Message Batches request that came back without an answer
    "batch_request_expired": N_(
        "the request expired before Claude ran it (a batch runs at most 24 hours)",
    ),
    "batch_request_canceled": N_("the batch was canceled before Claude ran the request"),
    "batch_request_unknown": N_("the request came back as '{kind}', without an answer"),
    "batch_request_overloaded": N_("Claude was overloaded and did not run the request"),
    "batch_request_api_error": N_("Claude failed on its side while running the request"),
    "batch_request_rate_limited": N_("the account's rate limit stopped the request"),
    "batch_request_key_refused": N_(
        "Claude refused the API key or its permissions for the request ({detail}); check "
        "ANTHROPIC_API_KEY and the account's access",
    ),
    "batch_request_billing": N_(
        "Claude refused the request for billing reasons ({detail}); check the account's plan and "
        "billing",
    ),
    "batch_request_errored": N_("Claude returned an error for the request ({detail})"),
    "batch_cut_off": N_(
        "the answer was cut off at {budget} output tokens (sent again with {raised})",
    ),
    "vision_no_answer": NN_(
        "Google Vision did not answer page {page} after {attempts} attempt: {cause}",
        "Google Vision did not answer page {page} after {attempts} attempts: {cause}",
        "attempts",
    ),
    # Google Vision: credentials and the account (these stop the queue)
    "vision_credentials_none": N_(
        "Google Vision has no credentials: neither GOOGLE_APPLICATION_CREDENTIALS nor the "
        "credentials file setting names a service-account JSON file ({detail}). Set one of them, "
        "or choose another OCR engine in Settings → OCR.",
    ),
    "vision_credentials_missing": N_(
        "The Google Vision credentials file {path} does not exist. Check the path in Settings (or "
        "GOOGLE_APPLICATION_CREDENTIALS), then press Resume.",
    ),
    "vision_credentials_invalid": N_(
        "The Google Vision credentials file {path} is not a valid service-account JSON key "
        "({detail}). Download a new key for the service account in the Google Cloud console, then "
        "press Resume.",
    ),
    "vision_credentials_refused": N_(
        "Google Vision refused the credentials ({status}: {detail}). Check "
        "GOOGLE_APPLICATION_CREDENTIALS (or the credentials file setting) and that the service "
        "account may use the Cloud Vision API.",
    ),
    "vision_token_refused": N_(
        "Google Vision credentials were refused: no access token could be obtained ({detail}). "
        "Check GOOGLE_APPLICATION_CREDENTIALS (or the credentials file setting); if the key was "
        "revoked, create a new key for the service account.",
    ),
    "vision_billing": N_(
        "Google Vision refused the request because billing is disabled ({detail}). Enable billing "
        "on the Google Cloud project, then press Resume.",
    ),
    "vision_api_disabled": N_(
        "The Cloud Vision API is not enabled on the Google Cloud project ({detail}). Enable it in "
        "the console, then press Resume.",
    ),
    "vision_request_refused": N_(
        "Google Vision refused the request ({status}: {detail}). Check the Vision endpoint and "
        "the OCR settings.",
    ),
    # Google Vision: one page
    "vision_page_rejected": N_("Google Vision rejected this page (400: {detail})"),
    "vision_page_unreadable": N_("Google Vision could not read this page ({detail})"),
    # why Google Vision gave no answer (the cause in vision_no_answer)
    "vision_cause_timeout": N_("no answer within {seconds} s"),
    "vision_cause_network": N_("cannot connect to Google Vision ({error})"),
    "vision_cause_quota": N_(
        "the project's Vision quota is used up for now ({detail}); raise the quota in the Google "
        "Cloud console or wait",
    ),
    "vision_cause_busy": N_("Google Vision is busy or failing ({status}: {detail})"),
    "vision_cause_other": N_("{error}"),
}

#: code → {parameter: its words}: a second number in a message, worded before it is put in
SERVICE_COUNTED: dict[str, dict[str, Plural]] = {
    "batch_requests_failed": {"times": NN_("{times} time", "{times} times", "times")}
}

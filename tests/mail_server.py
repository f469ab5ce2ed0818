"""A real IMAP server for the mailbox tests: Debian's ``dovecot`` on loopback.

Each server lives in its own folder: a config written here (nothing of
``/etc/dovecot`` is read), a passwd-file user, a Maildir, and a self-signed
certificate made for the test with ``cryptography``. It runs in the foreground
(``dovecot -F``) as a child of the test, on free ports: one for IMAP (STARTTLS
offered, plain login allowed, as ``MAIL_SECURITY=plain`` needs) and one for IMAPS.
Messages are put in with IMAP ``APPEND``, as a mail client would.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import getpass
import grp
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
from pathlib import Path
from typing import Self

from tests.helpers import wait_for
from tests.peers import free_port

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
USER = "clerk@example.test"
PASSWORD = "s3cret-pass"


def self_signed(folder: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """A certificate for ``host`` (its IP in the SAN) and its key, as PEM files."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    key_path.chmod(0o600)
    return cert_path, key_path


class Dovecot:
    """``with Dovecot() as server:`` a running IMAP server with one user.

    Its folder is a fresh one in the system's temporary folder, removed at ``stop``:
    run as root, dovecot's processes switch to its own users, who cannot enter
    pytest's private ``tmp_path``."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="docbatch-dovecot-"))
        self.host = "127.0.0.1"
        self.imap_port = free_port()
        self.imaps_port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.cert: Path | None = None

    def _config(self) -> Path:
        f = self.folder
        for sub in ("run", "state", "home"):
            (f / sub).mkdir(parents=True, exist_ok=True)
        self.cert, key = self_signed(f)
        uid, gid = os.getuid(), os.getgid()
        # dovecot refuses root for its login and internal processes and for a mail
        # user: as root, Debian's package users (the mail is the ``dovecot`` user's);
        # as anyone else, that user for everything
        user, login = ("dovecot", "dovenull") if uid == 0 else (getpass.getuser(),) * 2
        group = user if uid == 0 else grp.getgrgid(gid).gr_name
        if uid == 0:
            owner = pwd.getpwnam("dovecot")
            uid, gid = owner.pw_uid, owner.pw_gid
            os.chown(f / "home", uid, gid)
        f.chmod(0o755)
        (f / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}:{uid}:{gid}::{f / 'home'}/%u::\n")
        conf = f"""
base_dir = {f}/run
state_dir = {f}/state
instance_name = docbatch-test-{self.imap_port}
log_path = {f}/dovecot.log
info_log_path = {f}/dovecot.log
protocols = imap
listen = {self.host}
ssl = yes
ssl_cert = <{self.cert}
ssl_key = <{key}
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
first_valid_gid = 0
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {login}
mail_location = maildir:{f}/home/%u/Maildir
mail_uid = {uid}
mail_gid = {gid}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Archive {{
    auto = create
  }}
  mailbox DocBatch {{
    auto = create
  }}
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {f}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={f}/home/%u
}}
service imap-login {{
  chroot =
  user = {login}
  inet_listener imap {{
    address = {self.host}
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = {self.host}
    port = {self.imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
auth_failure_delay = 0
"""
        path = f / "dovecot.conf"
        path.write_text(conf)
        return path

    def start(self) -> Self:
        config = self._config()
        self.process = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "stderr.log", "wb"),  # noqa: SIM115 - kept by the child
            start_new_session=True,
        )
        wait_for(self._listening, 20, f"dovecot listening (see {self.folder}/dovecot.log)")
        return self

    def _listening(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            log = (self.folder / "stderr.log").read_text() + self._log()
            raise RuntimeError(f"dovecot exited {self.process.returncode}: {log}")
        for port in (self.imap_port, self.imaps_port):
            try:
                socket.create_connection((self.host, port), timeout=1).close()
            except OSError:
                return False
        return True

    def _log(self) -> str:
        path = self.folder / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is None:
            return
        # the whole group at once: its mail is the test's, nothing to shut down cleanly
        # (a SIGTERM'd dovecot waits seconds for its log and auth processes)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what a mail client does ------------------------------------------------------

    def client(self):  # type: ignore[no-untyped-def]
        """An IMAPClient logged in over IMAPS, trusting the test's certificate."""
        from imapclient import IMAPClient

        context = ssl.create_default_context(cafile=str(self.cert))
        client = IMAPClient(self.host, port=self.imaps_port, ssl=True, ssl_context=context)
        client.login(USER, PASSWORD)
        return client

    def append(self, raw: bytes, folder: str = "INBOX") -> None:
        with self.client() as client:
            client.append(folder, raw)

    def messages(self, folder: str = "INBOX") -> dict[int, tuple[bytes, ...]]:
        """UID → flags of every message in ``folder``."""
        with self.client() as client:
            client.select_folder(folder, readonly=True)
            uids = client.search("ALL")
            return {
                uid: tuple(data[b"FLAGS"]) for uid, data in client.fetch(uids, ["FLAGS"]).items()
            }

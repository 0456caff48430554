"""The repository's identity in datasets: one name per repository, whatever the spelling of
its remote, and never a credential."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from limpet.server.core._provenance import repository_identity

word = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=12).filter(
    lambda w: not w.startswith("-"))


@given(user=word, secret=word, host=word, owner=word, name=word, port=st.integers(1, 65535))
def test_every_spelling_of_a_remote_names_one_repository_without_credentials(user, secret, host, owner, name, port):
    host = f"{host}.example"
    spellings = [
        f"https://{user}:{secret}@{host}/{owner}/{name}.git",
        f"https://{host}/{owner}/{name}",
        f"ssh://{user}@{host}:{port}/{owner}/{name}.git",
        f"{user}@{host}:{owner}/{name}.git",
        f"https://{host.upper()}/{owner}/{name}/",
    ]
    names = {repository_identity(s, "folder") for s in spellings}
    assert names == {f"{host}/{owner}/{name}"}
    assert secret not in repository_identity(spellings[0], "folder").replace(f"{host}/{owner}/{name}", "")


@pytest.mark.parametrize(("remote", "expected"), [
    (None, "folder"), ("", "folder"), ("/srv/git/httpx.git", "httpx"), ("../httpx", "httpx"),
    ("file:///srv/git/httpx.git", "httpx"), ("C:\\\\repos\\\\httpx", "httpx"), ("C:/repos/httpx.git", "httpx"),
])
def test_local_remotes_and_none_name_the_folder(remote, expected):
    assert repository_identity(remote, "folder") == expected

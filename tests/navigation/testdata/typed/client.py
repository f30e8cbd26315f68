"""Attributes reached through a value's type: only the type evaluator
knows which class the receiver holds (iteration, with, subscripts,
returns inferred from bodies, stdlib containers)."""


class Response:  #@ Response:d:Response
    def json(self) -> dict:  #@ json:d:json dict:builtin
        return {}  

    def close(self):  #@ close:d:close
        pass


class Session:  #@ Session:d:Session
    def get(self, url: str) -> Response:  #@ get:d:get url:d:url str:builtin Response:r:Response
        return Response()  #@ Response:r:Response

    def __enter__(self):  #@ __enter__:d:enter
        return self

    def __exit__(self, *exc):  #@ __exit__:d:exit exc:d:exc
        return None


def open_session():  #@ open_session:d:open
    return Session()  #@ Session:r:Session


def many() -> list[Response]:  #@ many:d:many list:builtin Response:r:Response
    return [Response()]  #@ Response:r:Response


for r in many():  #@ r:d:r many:r:many
    r.json()  #@ r:r:r json:r:json

with open_session() as s:  #@ open_session:r:open s:d:s
    s.get("u").close()  #@ s:r:s get:r:get close:r:close

by_name = {"a": Response()}  #@ by_name:d:byname Response:r:Response
by_name["a"].json()  #@ by_name:r:byname json:r:json
first = many()[0]  #@ first:d:first many:r:many
first.close()  #@ first:r:first close:r:close

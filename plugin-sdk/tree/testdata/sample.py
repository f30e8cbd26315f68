def greet(名前: str = "wörld") -> str:
    """Say hello."""  # 👋
    return f"hello {名前}"


class A(B, metaclass=M):
    x: int = [i for i in range(3) if i]

i = i**2
j = super().name ** 5
k = [(2**63) - 1]
l = mod.weights_[0] == pytest.approx(0.95**100, abs=0.001)
m = [([2**63] * 2)]
n = count <= 10**5
o = "hello " ** 2
p = -(5**2)
q = x ** y ** z
r = (-1) ** n
s = 5 ** ~4
t = x[1] ** 2
u = x.y.z ** -a.b
v = -x ** 2
w = not -x
x = +y
y = ~ z
z = a - -b

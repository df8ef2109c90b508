# from tvm.script import tir as T

@T.prim_func
def control(A: T.Buffer((16,), "int32"), n: T.int32) -> T.int32:
    x = n * 2
    y: T.int64 = T.int64(7)
    m = T.int32()
    q = T.int32()
    acc = A[0]
    assert n > 0, "n must be positive"
    if n < 4:
        A[0] = 1
    elif n < 8 and not n == 5:
        A[0] = 2
    else:
        A[1] = 3
    if 0 <= x < 16:
        A[x] = T.Let(m + 1, where={m: x})
    i = 0
    while A[i] < 10 or i == 0:
        A[i] = A[i] + 1
        if A[i] > 100:
            break
    for j in range(16):
        if j == 3:
            continue
        A[j] = T.if_then_else(j < n, A[j], 0)
        A[j] = A[j] if j > 2 else x
        A[j] = T.Select(j % 2 == 0, A[j], T.truncdiv(A[j], 2))
    with T.let(q, x + 1):
        A[q % 16] = q
    T.evaluate(y + T.int64(1))
    return acc + x

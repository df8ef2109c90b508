# from tvm.script import tir as T

@T.prim_func
def math(X: T.Buffer((8,), "float32"), Y: T.Buffer((8,), "float64"), I: T.Buffer((8,), "int64"), U: T.Buffer((8,), "uint8"), H: T.Buffer((8,), "float16"), Bo: T.Buffer((8,), "bool")):
    for i in range(8):
        X[i] = T.exp(X[i]) + T.log(X[i]) + T.sqrt(T.fabs(X[i])) + T.tanh(X[i]) + T.sigmoid(X[i])
        X[i] = T.pow(X[i], T.float32(2)) + T.floor(X[i]) + T.ceil(X[i]) + T.round(X[i]) + T.erf(X[i])
        X[i] = T.min(X[i], T.float32(1)) + T.max(X[i], T.min_value("float32")) + T.infinity("float32")
        Y[i] = T.Cast("float64", X[i]) + X[i].astype("float64") + T.float64(1e-300)
        I[i] = T.int64(i) * 3 + T.truncmod(I[i], T.int64(5)) + T.floordiv(I[i], T.int64(2)) + T.floormod(I[i], T.int64(7))
        I[i] = T.ceildiv(I[i], T.int64(4)) + T.max_value("int64") // T.int64(1000)
        I[i] = (I[i] & T.int64(255)) | (I[i] << T.int64(2)) ^ ~I[i] >> T.int64(1)
        U[i] = U[i] + T.uint8(200)
        H[i] = H[i] * T.float16(0.5) - T.float16(1)
        Bo[i] = T.isnan(X[i]) or T.isinf(X[i]) and not T.isfinite(X[i])
        X[i] = T.call_extern("float32", "my_fn", X[i], 2)
        X[i] = T.if_then_else(Bo[i], X[i], T.float32("nan")) + T.float32("-inf")
        X[i] = i + X[i] * 2.5
        I[i] = -I[i]
        X[i] = -X[i]

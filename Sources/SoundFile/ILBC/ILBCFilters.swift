/// The linear filters the iLBC encoder runs, on `Double` samples; coefficient arrays are
/// `[1, a1, ..., a10]` as RFC 3951 writes A(z).
enum ILBCFilters {
    /// Filters `x` in place through 1/A(z), starting from a zero state.
    static func allPole(_ x: inout [Double], _ a: [Double]) {
        let order = a.count - 1
        for n in x.indices {
            var sum = x[n]
            var k = 1
            while k <= order && k <= n {
                sum -= a[k] * x[n - k]
                k += 1
            }
            x[n] = sum
        }
    }

    /// Filters `x` through A(z) (the LPC analysis filter), `history` holding the `order`
    /// samples before `x` (oldest first).
    static func analysis(_ x: ArraySlice<Double>, _ a: [Double], history: [Double]) -> [Double] {
        let order = a.count - 1
        var out = [Double](repeating: 0, count: x.count)
        let base = x.startIndex
        for n in 0..<x.count {
            var sum = 0.0
            for k in 0...order {
                let i = n - k
                sum += a[k] * (i >= 0 ? x[base + i] : history[history.count + i])
            }
            out[n] = sum
        }
        return out
    }

    /// Filters `x` through B(z)/A(z) from a zero state: the start state's all-pass filter, whose
    /// numerator is A(z) reversed.
    static func zeroPole(_ x: [Double], numerator b: [Double], denominator a: [Double]) -> [Double] {
        var y = [Double](repeating: 0, count: x.count)
        for n in x.indices {
            var sum = 0.0
            for k in b.indices where k <= n { sum += b[k] * x[n - k] }
            var k = 1
            while k < a.count && k <= n {
                sum -= a[k] * y[n - k]
                k += 1
            }
            y[n] = sum
        }
        return y
    }

    /// A(z/γ): each coefficient a_k times γ^k (bandwidth expansion).
    static func chirp(_ a: [Double], _ gamma: Double) -> [Double] {
        var out = a
        var g = gamma
        for k in 1..<a.count {
            out[k] = a[k] * g
            g *= gamma
        }
        return out
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Line spectral frequencies (RFC 3951 §3.2.2): the LPC polynomial's equivalent that iLBC
/// quantizes and interpolates, ten angles in (0, π) radians.
enum ILBCLineSpectrum {
    /// Points of the search grid over (0, π).
    private static let grid = 512

    /// The LSFs of `a` (`[1, a1, ..., a10]`), ascending, or nil when the sum and difference
    /// polynomials do not have five roots each on the unit circle (an unstable filter).
    static func frequencies(of a: [Double]) -> [Double]? {
        let order = ILBCTables.order
        // P(z) = A(z) + z^-11 A(1/z) without its root at z = -1, Q(z) likewise without z = 1.
        var p = [Double](repeating: 0, count: order + 1)
        var q = [Double](repeating: 0, count: order + 1)
        for k in 0...order {
            let mirror = order + 1 - k <= order ? a[order + 1 - k] : 0
            let pk = a[k] + mirror, qk = a[k] - mirror
            p[k] = pk - (k > 0 ? p[k - 1] : 0)
            q[k] = qk + (k > 0 ? q[k - 1] : 0)
        }
        guard let pRoots = roots(p), let qRoots = roots(q), pRoots.count == 5, qRoots.count == 5 else { return nil }
        var lsf: [Double] = []
        for i in 0..<5 { lsf += [pRoots[i], qRoots[i]] }
        for i in 1..<lsf.count where lsf[i] <= lsf[i - 1] { return nil }
        return lsf
    }

    /// cos ω at the search grid's points.
    private static let gridCosines: [Double] = (0...grid).map { cos(Double.pi * Double($0) / Double(grid)) }

    /// The roots in (0, π) of a symmetric degree-10 polynomial on the unit circle.
    private static func roots(_ g: [Double]) -> [Double]? {
        // e^{j5ω} G(e^{jω}) = g5 + 2 Σ g[5−k] cos kω, the cosines by Chebyshev's recurrence in cos ω.
        func value(cosine x: Double) -> Double {
            var previous = 1.0, current = x
            var sum = g[5] + 2 * g[4] * x
            for k in 2...5 {
                let next = 2 * x * current - previous
                previous = current
                current = next
                sum += 2 * g[5 - k] * current
            }
            return sum
        }
        var found: [Double] = []
        var v0 = value(cosine: gridCosines[0])
        for i in 1...grid {
            let v1 = value(cosine: gridCosines[i])
            if v0 == 0 {
                if i > 1 { found.append(Double.pi * Double(i - 1) / Double(grid)) }
            } else if v0 * v1 < 0 {
                var lo = Double.pi * Double(i - 1) / Double(grid), hi = Double.pi * Double(i) / Double(grid), vlo = v0
                for _ in 0..<24 {
                    let mid = (lo + hi) / 2, vm = value(cosine: cos(mid))
                    if vm * vlo <= 0 { hi = mid } else { lo = mid; vlo = vm }
                }
                found.append((lo + hi) / 2)
            }
            v0 = v1
        }
        return found.isEmpty || found.contains(where: { !$0.isFinite }) ? nil : found
    }

    /// The polynomial `[1, a1, ..., a10]` of ascending LSFs.
    static func polynomial(_ lsf: [Double]) -> [Double] {
        var p: [Double] = [1], q: [Double] = [1]
        for i in stride(from: 0, to: lsf.count, by: 2) { p = multiply(p, [1, -2 * cos(lsf[i]), 1]) }
        for i in stride(from: 1, to: lsf.count, by: 2) { q = multiply(q, [1, -2 * cos(lsf[i]), 1]) }
        p = multiply(p, [1, 1])
        q = multiply(q, [1, -1])
        return (0...ILBCTables.order).map { (p[$0] + q[$0]) / 2 }
    }

    private static func multiply(_ x: [Double], _ y: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: x.count + y.count - 1)
        for i in x.indices { for j in y.indices { out[i + j] += x[i] * y[j] } }
        return out
    }

    /// Spreads LSFs closer than 50 Hz apart and keeps them inside (0.01, 3.14) radians, twice
    /// over, as the decoder does with what it dequantizes (RFC 3951 §3.2.5).
    static func stabilize(_ lsf: inout [Double]) {
        let minGap = 0.039, step = 0.0195
        for _ in 0..<2 {
            for k in 0..<(lsf.count - 1) {
                if lsf[k + 1] - lsf[k] < minGap {
                    if lsf[k + 1] < lsf[k] {
                        lsf[k + 1] = lsf[k] + step
                        lsf[k] = lsf[k + 1] - step
                    } else {
                        lsf[k] -= step
                        lsf[k + 1] += step
                    }
                }
                lsf[k] = min(max(lsf[k], 0.01), 3.14)
            }
        }
    }

    /// `weight · first + (1 − weight) · second`, element by element.
    static func interpolate(_ first: [Double], _ second: [Double], weight: Double) -> [Double] {
        zip(first, second).map { weight * $0 + (1 - weight) * $1 }
    }
}

/// Removes the accents of lowercase Latin letters for search: `é` → `e`, `ş` → `s`, `ǖ` → `u`.
/// A letter without a decomposition (`ø`, `ß`, `ł`) and letters of other scripts stay as they are.
///
/// The table is every lowercase letter of Latin-1 Supplement, Latin Extended-A and -B and Latin
/// Extended Additional (U+00C0–U+024F, U+1E00–U+1EFF) whose canonical decomposition (NFD) is
/// a different letter followed by combining marks, mapped to that letter; generated with Python's
/// `unicodedata` (Unicode 14) as `{c: NFD(c) without its marks}`. FoundationEssentials has no
/// Unicode normalization, and a fixed table keeps the words of a text the same whatever the
/// platform. Pure; thread-safe.
enum SearchFolding {
    /// `scalar` without its accent, or itself.
    static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard scalar.value >= 0xC0 else { return scalar }
        return table[scalar] ?? scalar
    }

    /// Pairs of scalars, each accented letter followed by its base letter.
    private static let pairs: String = ""
        + "àaáaâaãaäaåaçcèeéeêeëeìiíiîiïiñnòoóoôoõoöoùuúuûuüuýyÿyāaăaąa"
        + "ćcĉcċcčcďdēeĕeėeęeěeĝgğgġgģgĥhĩiīiĭiįiĵjķkĺlļlľlńnņnňnōoŏoőo"
        + "ŕrŗrřrśsŝsşsšsţtťtũuūuŭuůuűuųuŵwŷyźzżzžzơoưuǎaǐiǒoǔuǖuǘuǚuǜu"
        + "ǟaǡaǣæǧgǩkǫoǭoǯʒǰjǵgǹnǻaǽæǿøȁaȃaȅeȇeȉiȋiȍoȏoȑrȓrȕuȗușsțtȟhȧa"
        + "ȩeȫoȭoȯoȱoȳyḁaḃbḅbḇbḉcḋdḍdḏdḑdḓdḕeḗeḙeḛeḝeḟfḡgḣhḥhḧhḩhḫhḭiḯi"
        + "ḱkḳkḵkḷlḹlḻlḽlḿmṁmṃmṅnṇnṉnṋnṍoṏoṑoṓoṕpṗpṙrṛrṝrṟrṡsṣsṥsṧsṩsṫt"
        + "ṭtṯtṱtṳuṵuṷuṹuṻuṽvṿvẁwẃwẅwẇwẉwẋxẍxẏyẑzẓzẕzẖhẗtẘwẙyẛſạaảaấaầa"
        + "ẩaẫaậaắaằaẳaẵaặaẹeẻeẽeếeềeểeễeệeỉiịiọoỏoốoồoổoỗoộoớoờoởoỡoợo"
        + "ụuủuứuừuửuữuựuỳyỵyỷyỹy"

    private static let table: [Unicode.Scalar: Unicode.Scalar] = {
        let scalars = Array(pairs.unicodeScalars)
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for index in stride(from: 0, to: scalars.count, by: 2) {
            table[scalars[index]] = scalars[index + 1]
        }
        return table
    }()
}

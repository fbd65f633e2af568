import Hummingbird
import LatchkeyWire

// The wire answers are written by the request context's encoder, as every JSON answer is: sorted keys, plain slashes,
// and absent optionals left out rather than written as null.
extension GetOobConfirmationCodeResponse: ResponseEncodable {}
extension EmailLinkSigninResponse: ResponseEncodable {}
extension ResetPasswordResponse: ResponseEncodable {}
extension SignupNewUserResponse: ResponseEncodable {}
extension VerifyPasswordResponse: ResponseEncodable {}
extension DownloadAccountResponse: ResponseEncodable {}
extension CancelRecoverEmailResponse: ResponseEncodable {}
extension UploadAccountResponse: ResponseEncodable {}
extension SignInWithIdpResponse: ResponseEncodable {}
extension CreateAuthUriResponse: ResponseEncodable {}
extension GetAccountInfoResponse: ResponseEncodable {}
extension SetAccountInfoResponse: ResponseEncodable {}
extension DeleteAccountResponse: ResponseEncodable {}
extension GrantTokenResponse: ResponseEncodable {}
extension OpenIDConfiguration: ResponseEncodable {}
extension OAuthIdpConfig: ResponseEncodable {}
extension DefaultSupportedIdpConfig: ResponseEncodable {}
extension ListOAuthIdpConfigsResponse: ResponseEncodable {}
extension ListDefaultSupportedIdpConfigsResponse: ResponseEncodable {}
extension EmptyResponse: ResponseEncodable {}
extension GetProjectConfigResponse: ResponseEncodable {}
extension StartMfaEnrollmentResponse: ResponseEncodable {}
extension FinalizeMfaResponse: ResponseEncodable {}
extension ProjectConfigResource: ResponseEncodable {}
